/** Fulfilment runs once per order line; its workflow id is derived, so starting it twice is a no-op. */
export const PRINT_FULFILMENT_FLOW = 'printFulfilment';
export const fulfilmentWorkflowId = (lineId: string) => `fulfilment:${lineId}`;

/** The subject of an order line's status events: the caller's order id and the project. */
export const ORDER_SUBJECT = 'order';
export const orderLineSubjectId = (orderId: string, projectId: string) => `${orderId}/${projectId}`;
