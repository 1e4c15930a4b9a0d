import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { Photo as PhotoEntity, Project as ProjectEntity } from '../../services/editor/editor-service';
import type { GraphqlContext } from '../context';
import { Photo, Project } from '../types/project';
import { ProjectFormat, SlotRefInput } from '../types/editor';
import { PrintWarning } from '../types/order';
import {
  addPages,
  movePage,
  movePhoto,
  removePages,
  setCoverTexts,
  setPageLayout,
  swapPhotos,
} from '../../services/editor/book-edits';

/** The editor's reads and edits of one project's book; every edit is saved at once. */
@Resolver(() => Project)
export class EditorResolver {
  @Mutation(() => Project, { description: 'Move an interior page to another position; the pages are renumbered' })
  movePage(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('from', () => Int) from: number,
    @Arg('to', () => Int) to: number,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book) => movePage(book, from, to));
  }

  @Mutation(() => Project, { description: 'Swap the photos of two slots, on one page or two' })
  swapPhotos(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('a', () => SlotRefInput) a: SlotRefInput,
    @Arg('b', () => SlotRefInput) b: SlotRefInput,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book) => swapPhotos(book, { ...a }, { ...b }));
  }

  @Mutation(() => Project, {
    description: 'Move a photo to a free slot of another page (a blank page becomes a one-photo page)',
  })
  movePhoto(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('from', () => SlotRefInput) from: SlotRefInput,
    @Arg('toPage', () => Int) toPage: number,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book) => movePhoto(book, { ...from }, toPage));
  }

  @Mutation(() => Project, {
    description:
      'Lay a page out again: full, two-side-by-side, two-stacked, grid-4 or blank (refused when it holds fewer photos than the page has)',
  })
  setPageLayout(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('page', () => Int) page: number,
    @Arg('layout', () => String) layout: string,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book) => setPageLayout(book, page, layout));
  }

  @Mutation(() => Project, { description: "The cover's title and subtitle (an empty subtitle removes it)" })
  setCoverTexts(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('title', () => String) title: string,
    @Arg('subtitle', () => String, { nullable: true }) subtitle?: string | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book) => setCoverTexts(book, title, subtitle));
  }

  @Mutation(() => Project, {
    description: "Insert two blank pages after page `after` (0: at the front), within the product's maximum",
  })
  addPages(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('after', () => Int) after: number,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book, bounds) => addPages(book, after, bounds));
  }

  @Mutation(() => Project, { description: "Remove an even number of pages, keeping the product's minimum" })
  removePages(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('pages', () => [Int]) pages: number[],
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, (book, bounds) => removePages(book, pages, bounds));
  }

  @FieldResolver(() => ProjectFormat, { description: "The product's page size and page bounds, for the editor" })
  format(@Root() project: { id: string }, @Ctx() { ctx, services }: GraphqlContext): Promise<ProjectFormat> {
    return services.editor.format(ctx, project);
  }

  @FieldResolver(() => [PrintWarning], {
    description: 'Photos placed where they would print soft or pixelated, as the book is now',
  })
  async printWarnings(
    @Root() project: { id: string },
    @Ctx() { ctx, services, loaders }: GraphqlContext,
  ): Promise<PrintWarning[]> {
    const warnings = await services.editor.printWarnings(ctx, project, await loaders.bookByProject.load(project.id));
    return warnings.map((warning) => ({ ...warning, page: String(warning.page) }));
  }
}

@Resolver(() => Photo)
export class PhotoResolver {
  @FieldResolver(() => String, { nullable: true, description: 'A small JPEG of the photo once analysed, for previews' })
  thumbnail(@Root() photo: PhotoEntity, @Ctx() { services }: GraphqlContext): string | null {
    return photo.thumbnailKey ? services.files.url(photo.thumbnailKey) : null;
  }
}
