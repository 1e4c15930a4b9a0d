import { OrderLine, type Photo, type Project } from '../../db/entities';
import type { RequestContext } from '../context';
import { generateProject, type GenerateResult } from './generate-project';
import { GenerateInput } from './generate-input';
import { schemaCheck } from '../schema-check';
import {
  cursorOf,
  findProjectRecord,
  listProjects,
  projectPhotos,
  projectStatusRow,
  type ProjectPage,
  type ProjectPageOptions,
  type ProjectStatusRow,
} from './project-queries';
import { deleteProjects, duplicateProject, transferProject } from './project-lifecycle';
import {
  effectiveStatus,
  listedProjectView,
  ownedProjectView,
  type ListedProject,
  type OwnedProject,
  type ProjectList,
  type ProjectRecord,
  type ProjectStatusRecord,
} from './project-view';
import type { ProjectServiceDeps } from './project-service-deps';
import { projectOrder, type ProjectOrder } from './project-order';

/**
 * The project capabilities both transports offer. REST shapes come straight from here (the API's field
 * names and units); GraphQL resolvers use the entity-returning methods.
 */
const checkGenerateInput = schemaCheck(GenerateInput);

export class ProjectService {
  constructor(private readonly deps: ProjectServiceDeps) {}

  /** Checked against the one declaration of the input (REST's route checks the same schema first). */
  async generate(ctx: RequestContext, input: unknown): Promise<GenerateResult> {
    return generateProject(ctx, this.deps, checkGenerateInput(input));
  }

  async list(ctx: RequestContext, user: string, cursor?: string): Promise<ProjectList> {
    const { files, editorLinks } = this.deps;
    const page = await listProjects(ctx, user, { cursor });
    return {
      data: page.projects.map((p) => listedProjectView(p, files, editorLinks)),
      ...(page.cursor ? { cursor: page.cursor } : {}),
    };
  }

  /** The same page `list` reads, as records (GraphQL `projects`). */
  page(ctx: RequestContext, user: string, options: ProjectPageOptions): Promise<ProjectPage> {
    return listProjects(ctx, user, options);
  }

  /** docs/api.md, Project status; `status.order`, `user` and `tracking` appear once the project was sent to print. */
  async status(ctx: RequestContext, id: string): Promise<ProjectStatusRecord> {
    const row = await projectStatusRow(ctx, id);
    const record: ProjectStatusRecord = {
      id: row.id,
      status: { photos: row.photosStatus, project: effectiveStatus(row) },
      ...(row.failedPhotos.length > 0 ? { failedPhotos: row.failedPhotos } : {}),
      ...(row.curatedPhotos.length > 0 ? { curatedPhotos: row.curatedPhotos } : {}),
    };
    // Only ordered projects have an order and an owner to report: the common case is one lean query.
    if (!row.ordered) return record;
    const line = await ctx.em.findOne(
      OrderLine,
      { project: row.id },
      { populate: ['order', 'project.owner'], orderBy: { order: { createdAt: 'desc' } } },
    );
    if (!line) return record;
    const { order, project } = line;
    const address = order.shippingAddress;
    record.status.order = line.status;
    record.user = {
      userId: project.owner.externalId,
      ...(project.owner.email ? { email: project.owner.email, actualEmail: project.owner.email } : {}),
      ...(order.firstName ? { firstName: order.firstName } : {}),
      ...(order.lastName ? { lastName: order.lastName } : {}),
      ...(order.telephone ? { phone: order.telephone } : {}),
      shippingAddress: {
        line1: address.line1,
        city: address.city ?? '',
        state: address.state ?? '',
        postal: address.postcode,
        country: address.country,
        isoCode2: address.isoCode2,
        isoCode3: address.isoCode3,
      },
    };
    if (line.status === 'delivering' && line.trackingUrl) record.tracking = line.trackingUrl;
    return record;
  }

  /** The order the project was printed in (its newest line), or null before any order: the editor shows it, read-only. */
  order(ctx: RequestContext, id: string): Promise<ProjectOrder | null> {
    return projectOrder(ctx, id);
  }

  /** The status columns of one project, one indexed SELECT: the hot read path (docs/performance.md). */
  statusRow(ctx: RequestContext, id: string): Promise<ProjectStatusRow> {
    return projectStatusRow(ctx, id);
  }

  /** One project for GraphQL `project(id)`, read without hydrating entities: a hot read path (docs/performance.md). */
  find(ctx: RequestContext, id: string): Promise<ProjectRecord> {
    return findProjectRecord(ctx, id);
  }

  photos(ctx: RequestContext, project: Project): Promise<Photo[]> {
    return projectPhotos(ctx, project);
  }

  async delete(ctx: RequestContext, input: { user: string; type: string; ids: unknown[] }): Promise<string[]> {
    const { ids, done } = await deleteProjects(ctx, this.deps, input);
    // async: answer now; the marking and scheduling finish in the background and are logged.
    done.catch((error) => this.deps.log.error({ err: error, ids }, 'async project deletion failed'));
    return ids;
  }

  async duplicate(ctx: RequestContext, input: { id: string; callback?: string }): Promise<OwnedProject> {
    return this.view(await this.duplicateEntity(ctx, input), 'owned');
  }

  duplicateEntity(ctx: RequestContext, input: { id: string; callback?: string }): Promise<Project> {
    return duplicateProject(ctx, this.deps, input);
  }

  async transfer(
    ctx: RequestContext,
    input: { id: string; targetUser: string; callback?: string },
  ): Promise<OwnedProject> {
    return this.view(await this.transferEntity(ctx, input), 'owned');
  }

  transferEntity(ctx: RequestContext, input: { id: string; targetUser: string; callback?: string }): Promise<Project> {
    return transferProject(ctx, input);
  }

  /** The same opaque keyset cursor `list` returns, for one project (GraphQL edges). */
  cursorOf(project: Pick<ProjectRecord, 'createdAt' | 'id'>): string {
    return cursorOf(project);
  }

  view(project: ProjectRecord, shape: 'list'): ListedProject;
  view(project: ProjectRecord, shape: 'owned'): OwnedProject;
  view(project: ProjectRecord, shape: 'list' | 'owned'): ListedProject | OwnedProject {
    const { files, editorLinks } = this.deps;
    return shape === 'list'
      ? listedProjectView(project, files, editorLinks)
      : ownedProjectView(project, files, editorLinks);
  }
}
