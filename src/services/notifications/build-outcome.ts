import type { MikroORM } from '@mikro-orm/postgresql';
import { PROJECT_BUILD_FLOW } from '../../domain/flows';
import { recordFlowFailure } from '../../metrics/work-metrics';
import { failRowOfProject } from '../campaigns/campaign-rows';
import { emForProject } from '../tenancy/row-tenant-scope';
import { failProjectBuild } from './project-build-failure';
import { isProjectReadyAwaited, notifyProjectReady, type NotifyDeps } from './project-ready';

/**
 * How a project build ends, for those who wait on it (the project-build flow's last steps): the
 * project failed, its book is ready (the campaign's webhook or the project's callback is told), or
 * it ended without an editable book (its campaign row fails). Each works as the project's tenant
 * (row-tenant-scope.ts); a project that is gone is a no-op.
 */
export class ProjectBuildOutcome {
  constructor(private readonly deps: NotifyDeps & { orm: MikroORM }) {}

  /** The build gave up: the project is `failed` with the reason (project-build-failure.ts). */
  async failed(projectId: string, reason: string): Promise<void> {
    const em = await emForProject(this.deps.orm, projectId);
    if (em) await failProjectBuild(em, projectId, reason);
    recordFlowFailure(PROJECT_BUILD_FLOW.name, 'gave_up');
  }

  /** The end of every project build: tell the campaign's webhook or the project's callback. */
  async ready(projectId: string): Promise<void> {
    const { orm, ...notify } = this.deps;
    if (!(await isProjectReadyAwaited(orm.em.getConnection(), projectId))) return;
    const em = await emForProject(orm, projectId);
    if (em) await notifyProjectReady(em, notify, projectId);
  }

  /** A project build ended without an editable book: its campaign row fails with the reason. */
  async notReady(projectId: string, reason: string): Promise<void> {
    const em = await emForProject(this.deps.orm, projectId);
    if (em) await failRowOfProject(em, projectId, reason);
  }
}
