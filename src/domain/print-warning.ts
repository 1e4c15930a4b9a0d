/** A placed photo that will print soft: recorded per order line and in the print manifest. */
export interface PrintWarning {
  page: number | 'cover';
  photoId: string;
  effectiveDpi: number;
  message: string;
}
