/**
 * A face the detector found in a photo: a box in 0..1 of the upright photo's width and height (EXIF
 * orientation applied, as slot crops are), and the detector's confidence, 0..1. Only where a face
 * is: nothing about whose it is (no landmarks, no descriptor, no identity).
 */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}
