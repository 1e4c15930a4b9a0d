/** What a status event is about (`subjectType`) and how its subject is named (`subjectId`). */

/** A project's status and photos status; the subject id is the project id. */
export const PROJECT_SUBJECT = 'project';

/** One order line's fulfilment status; the subject id is the caller's order id and the project. */
export const ORDER_SUBJECT = 'order';
export const orderLineSubjectId = (orderId: string, projectId: string) => `${orderId}/${projectId}`;

/** A campaign's status with its counts in `detail`; the subject id is the campaign id. */
export const CAMPAIGN_SUBJECT = 'campaign';

/**
 * A project's book changed (status `revised`: an edit, undo or redo, with `detail.revision` and
 * `detail.edit`); the subject id is the project id. What keeps two editors of one book in step.
 */
export const BOOK_SUBJECT = 'book';
