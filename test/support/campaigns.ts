import { print, type DocumentNode } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { post } from './http';
import { waitFor } from './wait';
import { CampaignDocument, type CampaignQuery } from './generated/graphql';

/** Runs a typed operation over HTTP; fails the test on GraphQL errors unless `allowErrors`. */
export async function graphql<R, V>(
  baseUrl: string,
  auth: Record<string, string>,
  document: TypedDocumentNode<R, V> | DocumentNode,
  variables?: V,
) {
  const response = await post(baseUrl, '/graphql', { query: print(document), variables }, auth);
  return response.body as { data: R; errors?: { message: string; extensions: { code: string } }[] };
}

export type CampaignState = NonNullable<CampaignQuery['campaign']>;

/** Waits until the campaign is completed or failed, and returns it with its rows and deliveries. */
export async function finishedCampaign(
  baseUrl: string,
  auth: Record<string, string>,
  id: string,
  timeoutMs = 60_000,
): Promise<CampaignState> {
  return waitFor(
    async () => {
      const { data } = await graphql(baseUrl, auth, CampaignDocument, { id });
      return data.campaign && ['completed', 'failed'].includes(data.campaign.status) ? data.campaign : undefined;
    },
    timeoutMs,
    `campaign ${id} to finish`,
  );
}

/** The campaign id named in the answer of /v2/campaign/auto-generate. */
export function campaignIdIn(message: string): string {
  const match = /cmp_[0-9A-Za-z]{20}/.exec(message);
  if (!match) throw new Error(`no campaign id in "${message}"`);
  return match[0];
}
