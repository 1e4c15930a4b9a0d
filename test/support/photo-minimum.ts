import pg from 'pg';

/**
 * Sets the photo minimum (`specifications.min.photos`) of a client's products to 0. Most tests order
 * books without photos (or with one or two) to test the order, not the book; with the demo catalogue's
 * minimum of 20 the preflight refuses them (NOT_PRINTABLE, TOO_FEW_PHOTOS or NO_USABLE_PHOTO). Tests of
 * that rule keep the minimum (test/services/preflight/blank-paper.test.ts).
 */
export async function waivePhotoMinimum(databaseUrl: string, clientId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update products set specifications = jsonb_set(specifications, '{min,photos}', '0') where client_id = $1`,
      [clientId],
    );
  } finally {
    await client.end();
  }
}
