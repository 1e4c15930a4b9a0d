import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../db/entities';
import { ACROSS_TENANTS, scopeToOwnerOf } from '../../db/tenant-filter';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { PROJECT_BUILD_FLOW, type WorkflowEngine } from '../../domain/flows';
import { moveProject, type ProjectStatus } from '../../domain/project-status';
import { recordStatusChange } from '../../events/status-event-log';
import { recordEvent } from '../webhooks/webhook-events';
import { projectStatusChange } from '../projects/project-events';

const MAX_REASON = 500;

/**
 * A project's build gave up (its retries, or RESOURCE_RETRY_WINDOW, spent): `building` → `failed`
 * with `buildProblem`, the status event (dashboards and subscriptions see `failed` and the reason)
 * and the shop's `project.build_failed` event, in one transaction. A project no longer building
 * (deleted, expired, or built meanwhile) stays as it is.
 */
export async function failProjectBuild(
  em: EntityManager,
  projectId: string,
  reason: string,
): Promise<{ moved: boolean; status: ProjectStatus }> {
  const text = reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
  return em.transactional(async (tx) => {
    const project = await tx.findOne(
      Project,
      { id: projectId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['owner', 'client'] },
    );
    if (project?.status !== 'building') return { moved: false, status: project?.status ?? 'deleted' };
    moveProject(project, 'failed');
    project.buildProblem = text;
    const owner = { clientId: project.client.id, env: project.env };
    const change = projectStatusChange({
      id: project.id,
      status: project.status,
      photosStatus: project.photosStatus,
      ownerExternalId: project.owner.externalId,
    });
    await recordStatusChange(tx, owner, { ...change, detail: { ...change.detail, reason: text } });
    await recordEvent(tx, owner, {
      type: 'project.build_failed',
      projectId: project.id,
      data: { projectId: project.id, status: 'failed', reason: text },
    });
    return { moved: true, status: project.status };
  });
}

/**
 * An operator builds a failed project again once the cause is gone (`npm run cli -- project rebuild
 * <projectId>`): `failed` → `building` (the problem cleared) and a new build run, which fetches the
 * photos still missing, lays the book out and makes it `editable` as a first build would.
 */
export async function rebuildProject(
  em: EntityManager,
  engine: Pick<WorkflowEngine, 'start'>,
  projectId: string,
): Promise<{ status: ProjectStatus; workflowId: string }> {
  const found = await em.fork().findOne(Project, { id: projectId }, { populate: ['client'], ...ACROSS_TENANTS });
  if (!found) throw new NotFoundError('project', projectId);
  const scoped = em.fork();
  scopeToOwnerOf(scoped, found);
  const tenant = { clientId: found.client.id, env: found.env };
  const input = { projectId, rebuildAt: Date.now() };
  const workflowId = PROJECT_BUILD_FLOW.workflowId(input, tenant);
  await scoped.transactional(async (tx) => {
    const project = await tx.findOneOrFail(
      Project,
      { id: projectId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['owner', 'client'] },
    );
    if (project.status !== 'failed')
      throw new ConflictError(
        'PROJECT_STATUS_CONFLICT',
        `project ${projectId} is ${project.status}: only a failed build can be rebuilt`,
      );
    moveProject(project, 'building');
    project.buildProblem = null;
    await recordStatusChange(
      tx,
      tenant,
      projectStatusChange({
        id: project.id,
        status: project.status,
        photosStatus: project.photosStatus,
        ownerExternalId: project.owner.externalId,
      }),
    );
  });
  try {
    await engine.start(PROJECT_BUILD_FLOW, input, { tenant });
  } catch (error) {
    // No run builds it: failed again, so the operator can try once more.
    await failProjectBuild(scoped, projectId, `the rebuild could not start: ${(error as Error).message}`);
    throw error;
  }
  return { status: 'building', workflowId };
}
