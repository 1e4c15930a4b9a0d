import { PAGE_LAYOUTS } from '../../domain/book';
import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { PageFormat, Photo as PhotoEntity, Project as ProjectEntity } from '../../services/editor/editor-service';
import type { GraphqlContext } from '../context';
import { CropRect, Photo, PhotoSlot, Project } from '../types/project';
import { PageCaptionInput, ProjectFormat, SlotCropInput, SlotRefInput } from '../types/editor';
import { PrintWarning } from '../types/order';
import { automaticCrop, cropRect, type SlotCrop } from '../../domain/slot-crop';
import { pageSlotSafeAreas } from '../../domain/print-safe-area';
import type { CaptionFont } from '../../domain/book';
import type { PhotoTarget } from '../../services/editor/book-edits';
import {
  addPages,
  movePage,
  movePhoto,
  removePages,
  setCoverTexts,
  setPageCaptions,
  setPageLayout,
  setSlotCrop,
  swapPhotos,
  unplacePhoto,
} from '../../services/editor/book-edits';

const EXPECTED_REVISION = {
  nullable: true,
  description:
    "The book revision the edit was made on (Project.bookRevision): refused with REVISION_CONFLICT and the book's currentRevision when another edit came first. Without it the edit applies to the latest book",
} as const;

/** The editor's reads and edits of one project's book; every edit is saved at once and makes the next revision. */
@Resolver(() => Project)
export class EditorResolver {
  @Mutation(() => Project, { description: 'Move an interior page to another position; the pages are renumbered' })
  movePage(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('from', () => Int) from: number,
    @Arg('to', () => Int) to: number,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'movePage', expectedRevision }, (book) =>
      movePage(book, from, to),
    );
  }

  @Mutation(() => Project, { description: 'Swap the photos of two slots, on one page or two' })
  swapPhotos(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('a', () => SlotRefInput) a: SlotRefInput,
    @Arg('b', () => SlotRefInput) b: SlotRefInput,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'swapPhotos', expectedRevision }, (book) =>
      swapPhotos(book, { ...a }, { ...b }),
    );
  }

  @Mutation(() => Project, {
    description: 'Move a photo to a free slot of another page (a blank page becomes a one-photo page)',
  })
  movePhoto(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('from', () => SlotRefInput) from: SlotRefInput,
    @Arg('toPage', () => Int) toPage: number,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'movePhoto', expectedRevision }, (book) =>
      movePhoto(book, { ...from }, toPage),
    );
  }

  @Mutation(() => Project, {
    description:
      "Put one of the project's photos into the book by its id (an upload's id is its photo's): into `slot` (the photo there goes back to the unused photos, the slot's crop to automatic) or into a free slot of page `toPage`; give one of the two. A photo already in the book moves there instead (swapped with the slot's photo, or moved to the page). The photo must be the project's and analysed (status idle)",
  })
  placePhoto(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('photoId', () => String, { description: 'A photo of this project: Photo.id, or the id of its upload' })
    photoId: string,
    @Arg('slot', () => SlotRefInput, { nullable: true }) slot?: SlotRefInput | null,
    @Arg('toPage', () => Int, { nullable: true }) toPage?: number | null,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.placePhoto(
      ctx,
      projectId,
      { name: 'placePhoto', expectedRevision },
      photoId,
      // Both or neither is refused by placePhotoAt, naming the fields.
      { slot: slot ? { ...slot } : undefined, toPage: toPage ?? undefined } as PhotoTarget,
    );
  }

  @Mutation(() => Project, {
    description:
      "Take the photo of a slot out of the book: it stays among the project's photos (unused, in the editor's tray); the page closes the gap, or becomes blank",
  })
  unplacePhoto(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('slot', () => SlotRefInput) slot: SlotRefInput,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'unplacePhoto', expectedRevision }, (book) =>
      unplacePhoto(book, { ...slot }),
    );
  }

  @Mutation(() => Project, {
    description: `Lay a page out again: ${PAGE_LAYOUTS.join(', ')} (refused when it holds fewer photos than the page has); spread runs one photo across an opening of a layflat book, set on its left-hand (even) page whose right-hand page holds no photo`,
  })
  setPageLayout(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('page', () => Int) page: number,
    @Arg('layout', () => String) layout: string,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'setPageLayout', expectedRevision }, (book, format) =>
      setPageLayout(book, page, layout, format.binding),
    );
  }

  @Mutation(() => Project, { description: "The cover's title and subtitle (an empty subtitle removes it)" })
  setCoverTexts(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('title', () => String) title: string,
    @Arg('subtitle', () => String, { nullable: true }) subtitle?: string | null,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'setCoverTexts', expectedRevision }, (book) =>
      setCoverTexts(book, title, subtitle),
    );
  }

  @Mutation(() => Project, {
    description: "Insert two blank pages after page `after` (0: at the front), within the product's maximum",
  })
  addPages(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('after', () => Int) after: number,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'addPages', expectedRevision }, (book, bounds) =>
      addPages(book, after, bounds),
    );
  }

  @Mutation(() => Project, { description: "Remove an even number of pages, keeping the product's minimum" })
  removePages(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('pages', () => [Int]) pages: number[],
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'removePages', expectedRevision }, (book, bounds) =>
      removePages(book, pages, bounds),
    );
  }

  @Mutation(() => Project, {
    description:
      'Crop, zoom and pan the photo of a slot (printed exactly so: PhotoSlot.cropRect); crop null goes back to the automatic crop',
  })
  setSlotCrop(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('slot', () => SlotRefInput) slot: SlotRefInput,
    @Arg('crop', () => SlotCropInput, { nullable: true }) crop?: SlotCropInput | null,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'setSlotCrop', expectedRevision }, (book) =>
      setSlotCrop(book, { ...slot }, crop ? { ...crop } : null),
    );
  }

  @Mutation(() => Project, {
    description: 'Replace the text boxes (captions) of a page; an empty list removes them. Printed in interior.pdf',
  })
  setPageCaptions(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('page', () => Int) page: number,
    @Arg('captions', () => [PageCaptionInput]) captions: PageCaptionInput[],
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.edit(ctx, projectId, { name: 'setPageCaptions', expectedRevision }, (book) =>
      setPageCaptions(
        book,
        page,
        captions.map((caption) => ({ ...caption, font: caption.font as CaptionFont })),
      ),
    );
  }

  @Mutation(() => Project, {
    description:
      'Take back the latest edit not yet undone (kept on the server: it survives a reload); a revision itself',
  })
  undo(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.undo(ctx, projectId, { expectedRevision });
  }

  @Mutation(() => Project, {
    description: 'Apply again the latest undone edit (none once an edit came after the undo); a revision itself',
  })
  redo(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('projectId', () => String) projectId: string,
    @Arg('expectedRevision', () => Int, EXPECTED_REVISION) expectedRevision?: number | null,
  ): Promise<ProjectEntity> {
    return services.editor.redo(ctx, projectId, { expectedRevision });
  }

  @FieldResolver(() => Int, { description: "The book's revision: each edit, undo and redo makes the next" })
  async bookRevision(@Root() project: { id: string }, @Ctx() { loaders }: GraphqlContext): Promise<number> {
    return (await loaders.bookStateByProject.load(project.id)).revision;
  }

  @FieldResolver(() => Boolean, { description: 'Whether the book has an edit Undo can take back' })
  async canUndo(@Root() project: { id: string }, @Ctx() { loaders }: GraphqlContext): Promise<boolean> {
    return (await loaders.bookStateByProject.load(project.id)).canUndo;
  }

  @FieldResolver(() => Boolean, { description: 'Whether the book has an undone edit Redo can apply again' })
  async canRedo(@Root() project: { id: string }, @Ctx() { loaders }: GraphqlContext): Promise<boolean> {
    return (await loaders.bookStateByProject.load(project.id)).canRedo;
  }

  @FieldResolver(() => ProjectFormat, { description: "The product's page size and page bounds, for the editor" })
  format(@Root() project: { id: string }, @Ctx() context: GraphqlContext): Promise<ProjectFormat> {
    return formatOf(context, project.id);
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

@Resolver(() => PhotoSlot)
export class PhotoSlotResolver {
  @FieldResolver(() => CropRect, {
    nullable: true,
    description:
      "The part of the upright photo this slot shows, from its crop or the automatic one (which keeps the photo's faces inside the print's safe area): the editor draws it and print prints it from these same numbers. Null until the photo is analysed",
  })
  async cropRect(
    @Root()
    slot: {
      photoId: string;
      x: number;
      y: number;
      width: number;
      height: number;
      crop?: SlotCrop;
      projectId?: string;
      pageNumber?: number;
      pageLayout?: string;
    },
    @Ctx() context: GraphqlContext,
  ): Promise<CropRect | null> {
    if (!slot.projectId) return null;
    const photos = await context.loaders.photosByProject.load(slot.projectId);
    const photo = photos.find((p) => p.id === slot.photoId);
    if (!photo?.width || !photo.height) return null;
    const format = await formatOf(context, slot.projectId);
    const upright = { width: photo.width, height: photo.height };
    const slotMm = { width: slot.width * format.widthMm, height: slot.height * format.heightMm };
    return cropRect(
      upright,
      slotMm,
      slot.crop ??
        automaticCrop(
          upright,
          slotMm,
          photo.faces,
          pageSlotSafeAreas(slot, format, { number: slot.pageNumber ?? 1, layout: slot.pageLayout ?? 'full' }),
        ),
    );
  }
}

/** One format read per project and request, however many slots ask. */
const formats = new WeakMap<GraphqlContext['loaders'], Map<string, Promise<PageFormat>>>();
function formatOf({ ctx, services, loaders }: GraphqlContext, projectId: string): Promise<PageFormat> {
  let byProject = formats.get(loaders);
  if (!byProject) formats.set(loaders, (byProject = new Map()));
  let format = byProject.get(projectId);
  if (!format) byProject.set(projectId, (format = services.editor.format(ctx, { id: projectId })));
  return format;
}

@Resolver(() => Photo)
export class PhotoResolver {
  @FieldResolver(() => String, { nullable: true, description: 'A small JPEG of the photo once analysed, for previews' })
  thumbnail(@Root() photo: PhotoEntity, @Ctx() { services }: GraphqlContext): string | null {
    return photo.thumbnailKey ? services.files.url(photo.thumbnailKey) : null;
  }
}
