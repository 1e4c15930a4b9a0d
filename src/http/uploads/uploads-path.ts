/** Where the tus endpoint lives (docs/api.md, Uploads). */
export const UPLOADS_PATH = '/v2/uploads';
