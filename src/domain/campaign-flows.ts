/** Flow names (also Temporal workflow types) and workflow ids of campaigns and webhook deliveries. */

export const CAMPAIGN_FLOW = 'campaign';
export const WEBHOOK_DELIVERY_FLOW = 'webhookDelivery';

/** The business key: starting the same campaign twice is one run. */
export const campaignWorkflowId = (clientId: string, campaignId: string) => `campaign:${clientId}:${campaignId}`;

/** Round 0 is the first sending; each replay of a failed delivery is a new round (a new run). */
export const webhookWorkflowId = (deliveryId: string, round = 0) => (round === 0 ? `webhook:${deliveryId}` : `webhook:${deliveryId}:replay-${round}`);
