import { defineFlow } from './flow-contract';

export interface CampaignInput {
  campaignId: string;
}

/** A CSV campaign: one project per good row, generated page by page. Starting it twice is one run. */
export const CAMPAIGN_FLOW = defineFlow<CampaignInput, { status: string }>({
  name: 'campaign',
  queue: 'campaigns',
  workflowId: ({ campaignId }, { clientId }) => `campaign:${clientId}:${campaignId}`,
});
