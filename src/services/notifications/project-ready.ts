import type { AbstractSqlConnection, EntityManager } from '@mikro-orm/postgresql';
import { Project, WebhookDelivery } from '../../db/entities';
import type { Config } from '../../config';
import type { WebhookEvent } from '../../domain/webhook-delivery-status';
import type { EditorLinks } from '../projects/editor-links';
import { campaignRowOfProject, markRowGenerated } from '../campaigns/campaign-rows';
import { findWebhook } from '../webhooks/webhook-endpoints';
import { projectReadyBody } from '../webhooks/webhook-body';
import { startDelivery, type DeliveryStartDeps } from '../webhooks/start-delivery';
import { recordEventOnce } from '../webhooks/webhook-events';

export interface NotifyDeps extends DeliveryStartDeps {
  config: Pick<Config, 'durations' | 'webhookRetryScale'>;
  editorLinks: EditorLinks;
}

const EVENT: WebhookEvent = 'project.ready';

/**
 * Whether anybody waits to hear that the project is ready: a campaign row that claims it, or its
 * callback URL. One SELECT by the flow's project id, so the build of a project nobody waits for
 * (most of them) ends without a tenant lookup or entities: builds run beside the requests, so their
 * statements compete with them (docs/performance.md).
 */
export async function isProjectReadyAwaited(db: AbstractSqlConnection, projectId: string): Promise<boolean> {
  const [row] = await db.execute<{ awaited: boolean }[]>(
    `SELECT p.callback_url IS NOT NULL
            OR EXISTS (SELECT 1 FROM campaign_rows r
                        WHERE r.project_id = p.id AND r.client_id = p.client_id AND r.env = p.env AND r.claimed_reference IS NOT NULL) AS awaited
       FROM projects p
      WHERE p.id = ? AND p.status = 'editable'`,
    [projectId],
  );
  return row?.awaited ?? false;
}

/**
 * A project became editable: if it came from a campaign row, the client's webhook is told (with
 * the row's reference); otherwise, if it carries a callback URL, that URL is told (with the
 * project id as reference). One delivery per project and event, however often this runs.
 * Returns the delivery id, or null when nobody is to be told.
 */
export async function notifyProjectReady(
  em: EntityManager,
  deps: NotifyDeps,
  projectId: string,
): Promise<string | null> {
  const project = await em.findOne(Project, { id: projectId }, { populate: ['owner', 'market', 'client'] });
  if (project?.status !== 'editable') return null;
  const tenant = { clientId: project.client.id, clientName: project.client.name, env: project.env };

  const row = await campaignRowOfProject(em, projectId);
  let target: { url: string; reference: string; campaignId: string | null };
  if (row) {
    await markRowGenerated(em, projectId);
    const endpoint = await findWebhook(em, tenant);
    if (!endpoint) return null; // a campaign cannot start without one; removed meanwhile
    target = { url: endpoint.url, reference: row.reference!, campaignId: row.campaign.id };
  } else if (project.callbackUrl) {
    target = { url: project.callbackUrl, reference: project.id, campaignId: null };
  } else {
    return null;
  }

  const body = projectReadyBody(
    deps.editorLinks.editorUrl(tenant, project, project.owner.externalId),
    target.reference,
  );
  const eventKey = `${EVENT}:${project.id}`;
  const now = new Date();
  // The event in the outbox (GET /v2/events) and its delivery, once, in one transaction; the
  // delivery's webhook-id is the event's id.
  await em.transactional(async (tx) => {
    const eventId = await recordEventOnce(tx, tenant, eventKey, {
      type: EVENT,
      projectId: project.id,
      data: { ...body },
    });
    await tx
      .createQueryBuilder(WebhookDelivery)
      .insert({
        id: crypto.randomUUID(),
        client: tenant.clientId,
        env: tenant.env,
        eventKey,
        event: EVENT,
        projectId: project.id,
        reference: target.reference,
        campaign: target.campaignId,
        url: target.url,
        payload: JSON.stringify(body),
        status: 'pending',
        round: 0,
        eventId,
        // Started right below, by its writer.
        dispatchedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict('eventKey')
      .ignore()
      .execute();
  });
  const delivery = await em.fork().findOneOrFail(WebhookDelivery, { eventKey });
  await startDelivery(deps, {
    id: delivery.id,
    round: delivery.round,
    tenant: { clientId: delivery.client.id, env: delivery.env },
    campaign: target.campaignId !== null,
  });
  return delivery.id;
}
