/**
 * The book as built for the editor and the print renderer. Slot geometry is relative to the page
 * (0..1 of the trim box), so the same book renders at any resolution.
 */
export interface PhotoSlot {
  photoId: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextSlot {
  /** Template asset id, e.g. `title`. */
  assetId: string;
  text: string;
}

export interface BookPage {
  /** 1-based interior page number. */
  number: number;
  layout: 'full' | 'two-side-by-side' | 'two-stacked' | 'grid-4' | 'blank';
  photos: PhotoSlot[];
  texts: TextSlot[];
}

export interface BookCover {
  title: string;
  subtitle?: string;
  /** A project photo id, or a custom image asset's photo id. */
  photoId?: string;
  texts: TextSlot[];
}

export interface Book {
  layoutType: 'fastbook' | 'smartbook';
  cover: BookCover;
  pages: BookPage[];
}
