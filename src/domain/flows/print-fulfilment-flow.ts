import type { OrderStatus } from '../order-status';
import { defineFlow, defineSignal } from './flow-contract';

export interface PrintFulfilmentInput {
  lineId: string;
  /**
   * Each unpaid timer (`waiting → expiring → last call → abandoned`), and how long to wait for the
   * project's assets before `files missing`, and again before `abandoned`.
   */
  assetsTimeoutMs: number;
  /** The sandbox printer's pause between its statuses. */
  sandboxStepMs: number;
}

/** The payload of `STATUS_UPDATE_SIGNAL`. */
export interface StatusUpdate {
  status: OrderStatus;
  trackingUrl?: string;
  /** Carrier, tracking number and URL per parcel, as the printer reports them. */
  parcels?: { carrier?: string; trackingNumber?: string; trackingUrl?: string }[];
}

/** Printer events, eCommerce cancels and an operator's retry reach a running fulfilment as this signal. */
export const STATUS_UPDATE_SIGNAL = defineSignal<StatusUpdate>('statusUpdate');

/** Fulfilment runs once per order line. */
export const fulfilmentWorkflowId = (orderLineId: string) => `fulfilment:${orderLineId}`;

/** The order line a fulfilment run is for, or undefined when `workflowId` is another flow's. */
export const orderLineOfFulfilment = (workflowId: string): string | undefined =>
  workflowId.startsWith('fulfilment:') ? workflowId.slice('fulfilment:'.length) : undefined;

/** One order line from payment to the customer's door. */
export const PRINT_FULFILMENT_FLOW = defineFlow<PrintFulfilmentInput, { status: string }>({
  name: 'printFulfilment',
  workflowId: ({ lineId }) => fulfilmentWorkflowId(lineId),
});
