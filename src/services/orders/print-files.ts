import type { OrderLine } from '../../db/entities';

/** Print files of an order line: `<client>/<env>/orders/<order uuid>/<project>/…` in the FileStore. */
export function printFilesPrefix(line: OrderLine): string {
  return `${line.order.client.id}/${line.order.env}/orders/${line.order.id}/${line.project.id}`;
}
