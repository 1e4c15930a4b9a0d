import { plainInput } from '../plain-input';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { IdempotencyKeyArg } from '../idempotency-key';
import type { ProjectRecord } from '../../services/projects/project-view';
import type { GraphqlContext } from '../context';
import { selectsOnly } from '../selects-only';
import type { ProjectStatusRow } from '../../services/projects/project-queries';
import { MAX_PROJECT_PAGE_SIZE } from '../../domain/limits';
import type { DeleteType } from '../../services/projects/project-lifecycle';
import {
  BookCover,
  BookPage,
  DeleteProjectsPayload,
  DeleteTypeEnum,
  GenerateProjectInput,
  GenerateProjectPayload,
  Photo,
  Project,
  ProjectConnection,
  ProjectOrder,
  ProjectProduct,
  ProjectStatusPair,
} from '../types/project';
import { effectiveStatus } from '../../services/projects/project-view';

/** The fields of Project whose resolvers need only a ProjectStatusRow. */
const STATUS_ROW_FIELDS: ReadonlySet<string> = new Set([
  '__typename',
  'id',
  'status',
  'ordered',
  'expiresAt',
  'photos',
  'order',
]);

@Resolver(() => Project)
export class ProjectResolver {
  @Query(() => Project, { description: 'One project of this client (REST: project/status)' })
  project(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('id', () => String) id: string,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ProjectRecord | ProjectStatusRow> {
    // A client polling the status asks for little: one lean row, as REST's status; anything more reads the joined record.
    return selectsOnly(info, STATUS_ROW_FIELDS)
      ? services.projects.statusRow(ctx, id)
      : services.projects.find(ctx, id);
  }

  @Query(() => ProjectConnection, { description: "A user's projects, newest first (REST: project/list)" })
  async projects(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('user', () => String, { description: 'The userId or the e-mail used at creation' }) user: string,
    @Arg('first', () => Int, { defaultValue: MAX_PROJECT_PAGE_SIZE, description: `At most ${MAX_PROJECT_PAGE_SIZE}` })
    first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ): Promise<ProjectConnection> {
    const page = await services.projects.page(ctx, user, { cursor: after ?? undefined, cursorField: 'after', first });
    return {
      edges: page.projects.map((node) => ({
        node: node as unknown as Project,
        cursor: services.projects.cursorOf(node),
      })),
      pageInfo: { hasNextPage: page.cursor !== undefined, endCursor: page.cursor ?? null },
    };
  }

  @Mutation(() => GenerateProjectPayload, { description: 'Create a project and get its editor URL (REST: generate)' })
  async generateProject(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => GenerateProjectInput) input: GenerateProjectInput,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<GenerateProjectPayload> {
    const { url, project } = await services.projects.generate(ctx, plainInput(input));
    return { url, project: project as unknown as Project };
  }

  @Mutation(() => DeleteProjectsPayload, { description: "Delete some of a user's projects (REST: project/delete)" })
  async deleteProjects(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('user', () => String) user: string,
    @Arg('ids', () => [String]) ids: string[],
    @Arg('type', () => DeleteTypeEnum, { defaultValue: DeleteTypeEnum.sync }) type: DeleteType,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<DeleteProjectsPayload> {
    return { ids: await services.projects.delete(ctx, { user, ids, type }) };
  }

  @Mutation(() => Project, { description: 'Copy a project for the same user (REST: project/duplicate)' })
  duplicateProject(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('id', () => String) id: string,
    @Arg('callback', () => String, { nullable: true }) callback?: string | null,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<ProjectRecord> {
    return services.projects.duplicateEntity(ctx, { id, callback: callback ?? undefined });
  }

  @Mutation(() => Project, { description: 'Give a project to another user (REST: project/transfer)' })
  transferProject(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('id', () => String) id: string,
    @Arg('targetUser', () => String) targetUser: string,
    @Arg('callback', () => String, { nullable: true }) callback?: string | null,
    @IdempotencyKeyArg() _idempotencyKey?: string | null,
  ): Promise<ProjectRecord> {
    return services.projects.transferEntity(ctx, { id, targetUser, callback: callback ?? undefined });
  }

  @FieldResolver(() => String, { description: 'From the cover text, else the sku' })
  title(@Root() project: ProjectRecord): string {
    return project.title ?? project.sku;
  }

  @FieldResolver(() => String, { nullable: true, description: 'Cover preview URL once rendered' })
  preview(@Root() project: ProjectRecord, @Ctx() { services }: GraphqlContext): string | null {
    return project.previewKey ? services.files.previewUrl(project.previewKey) : null;
  }

  @FieldResolver(() => ProjectStatusPair)
  status(@Root() project: Pick<ProjectStatusRow, 'status' | 'expiresAt' | 'photosStatus'>): ProjectStatusPair {
    return { project: effectiveStatus(project), photos: project.photosStatus };
  }

  @FieldResolver(() => String, { description: 'The owner: userId, e-mail or generated id' })
  endUserId(@Root() project: ProjectRecord): string {
    return project.owner.externalId;
  }

  @FieldResolver(() => ProjectProduct)
  product(@Root() project: ProjectRecord): ProjectProduct {
    return {
      psp: project.psp,
      sku: project.sku,
      marketId: project.market.marketId,
      marketIdAlt: project.market.marketIdAlt,
    };
  }

  @FieldResolver(() => String, { description: 'The project in the editor' })
  link(@Root() project: ProjectRecord, @Ctx() { services }: GraphqlContext): string {
    return services.projects.view(project, 'owned').link;
  }

  @FieldResolver(() => Boolean)
  ordered(@Root() project: Pick<ProjectStatusRow, 'ordered'>): boolean {
    return project.ordered;
  }

  @FieldResolver(() => ProjectOrder, {
    nullable: true,
    description: 'The order the project was printed in (its newest order line); null until it is ordered',
  })
  order(
    @Root() project: Pick<ProjectStatusRow, 'id' | 'ordered'>,
    @Ctx() { ctx, services }: GraphqlContext,
  ): Promise<ProjectOrder | null> | null {
    return project.ordered ? services.projects.order(ctx, project.id) : null;
  }

  @FieldResolver(() => GraphQLDateTimeISO)
  createdAt(@Root() project: ProjectRecord): Date {
    return project.createdAt;
  }

  @FieldResolver(() => GraphQLDateTimeISO)
  updatedAt(@Root() project: ProjectRecord): Date {
    return project.updatedAt;
  }

  @FieldResolver(() => GraphQLDateTimeISO, { description: 'When the project will be deleted unless updated' })
  expiresAt(@Root() project: Pick<ProjectStatusRow, 'expiresAt'>): Date {
    return project.expiresAt;
  }

  @FieldResolver(() => [Photo], { description: 'Photos in the order given, each with its status and any problem' })
  photos(@Root() project: Pick<ProjectStatusRow, 'id'>, @Ctx() { loaders }: GraphqlContext): Promise<Photo[]> {
    return loaders.photosByProject.load(project.id) as Promise<Photo[]>;
  }

  @FieldResolver(() => [BookPage], { description: 'Interior pages, once the book is built' })
  async pages(@Root() project: ProjectRecord, @Ctx() { loaders }: GraphqlContext): Promise<BookPage[]> {
    const pages = (await loaders.bookByProject.load(project.id))?.pages ?? [];
    // Each slot names its project and page, for the fields computed from its photo (PhotoSlot.cropRect).
    return pages.map((page) => ({
      ...page,
      captions: page.captions ?? [],
      photos: page.photos.map((slot) => ({
        ...slot,
        projectId: project.id,
        pageNumber: page.number,
        pageLayout: page.layout,
      })),
    }));
  }

  @FieldResolver(() => BookCover, { nullable: true })
  async cover(@Root() project: ProjectRecord, @Ctx() { loaders }: GraphqlContext): Promise<BookCover | null> {
    return (await loaders.bookByProject.load(project.id))?.cover ?? null;
  }
}
