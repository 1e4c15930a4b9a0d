import { Type, type Static } from 'typebox';

/** One order in a user's history, declared once for REST and the service's types. */
export const OrderHistoryEntry = Type.Object({
  orderId: Type.String(),
  displayDate: Type.String({ description: 'DD-MM-YYYY HH:mm in the server time zone' }),
  date: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
  timestamp: Type.Integer({ description: 'Unix seconds' }),
  email: Type.String(),
  sourceOrderId: Type.String(),
  orders: Type.Array(
    Type.Object({
      title: Type.String(),
      coverPreview: Type.String(),
      quantity: Type.Integer(),
      total: Type.Number(),
      product: Type.Object({ name: Type.String(), basePrice: Type.Number(), extraCostPerPage: Type.Number() }),
      displayStatus: Type.String(),
    }),
  ),
  orderStatus: Type.String(),
  shippingAddress: Type.Object({
    firstname: Type.String(),
    lastname: Type.String(),
    address_1: Type.String(),
    address_2: Type.Optional(Type.String()),
    city: Type.String(),
    postcode: Type.String(),
    state: Type.String(),
    country: Type.String(),
  }),
  shippingCost: Type.Number(),
  shippingLevel: Type.Optional(
    Type.Object(
      { code: Type.String(), name: Type.String() },
      { description: "Extension: the market's shipping level the order ships with; absent where the market has none" },
    ),
  ),
  voucher: Type.String(),
  voucherAmount: Type.Number(),
  subTotal: Type.Number(),
  grandTotal: Type.Number(),
});
export type OrderHistoryEntry = Static<typeof OrderHistoryEntry>;

export const OrderHistoryPage = Type.Object({
  results: Type.Array(OrderHistoryEntry),
  cursor: Type.Optional(Type.String()),
});
export type OrderHistoryPage = Static<typeof OrderHistoryPage>;
