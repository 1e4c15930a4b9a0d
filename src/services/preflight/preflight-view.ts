import { Type, type Static } from 'typebox';
import { PREFLIGHT_CODES, PREFLIGHT_SEVERITIES } from '../../domain/preflight';
import { FailedPhotoView } from '../projects/project-view';

const PreflightProblemView = Type.Object({
  code: Type.Enum(PREFLIGHT_CODES, { type: 'string' }),
  severity: Type.Enum(PREFLIGHT_SEVERITIES, {
    type: 'string',
    description: 'blocking: /v2/print refuses the project; warning: it prints, but may disappoint',
  }),
  page: Type.Optional(Type.Integer({ description: 'Interior page, from 1; 0 is the cover. Absent: the whole book' })),
  slot: Type.Optional(Type.Integer({ description: 'Photo slot on the page, from 0 in reading order' })),
  message: Type.String(),
});

export const PreflightView = Type.Object({
  printable: Type.Boolean({ description: 'No blocking problem: POST /v2/print accepts the project as it is now' }),
  problems: Type.Array(PreflightProblemView),
  usablePhotos: Type.Integer({
    description: 'Distinct photos placed in the book (pages and cover) that can be printed',
  }),
  failedPhotos: Type.Array(FailedPhotoView, {
    description: "Every photo of the project that failed, in the client's order, with its reason",
  }),
});
export type PreflightView = Static<typeof PreflightView>;
