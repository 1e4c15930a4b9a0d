/** What a shop may do to an order after placing it (docs/api.md, Order actions). */
export const ORDER_ACTIONS = ['cancel', 'update-recipient', 'update-shipping', 'claim'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];
