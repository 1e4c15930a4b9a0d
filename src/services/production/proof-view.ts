import { Type, type Static } from 'typebox';

/** A proof as `POST /v2/project/proof` answers it (docs/api.md, Proof). */
export const ProofView = Type.Object({
  proofId: Type.String({ description: 'Name it in /v2/print projects[].proofId to print exactly these files' }),
  files: Type.Array(
    Type.Object({
      name: Type.String({ description: 'cover.pdf or interior.pdf' }),
      sha256: Type.String({ description: 'SHA-256 (hex) of the file: the printer receives these very bytes' }),
      bytes: Type.Integer(),
      pages: Type.Integer(),
    }),
  ),
  previewUrl: Type.String({
    description: 'Signed URL of a watermarked, low-resolution (72 DPI) PDF of every page, to show the customer',
  }),
  expiresAt: Type.Integer({
    description: 'Unix seconds: PROOF_TTL after the proof; an order naming it after that is 409 PROOF_EXPIRED',
  }),
});
export type ProofView = Static<typeof ProofView>;
