import type { PrinterRejectedJob } from '../../printers/printer';

/**
 * Whether a printer's refusal is about our own data, so that no other printer would take the job
 * either and failing over would only spread the refusal: HTTP 400 (the request is malformed) and 422
 * (well-formed but invalid: an address the carrier cannot serve, files that fail the printer's
 * checks). The line then stops at `failed processing` with the printer's reason, as before routing.
 * Every other refusal (401/403: our account there, 404/409/410: the product or service is not
 * available there, a refusal without a status: a partner product not mapped) is the printer's, and
 * the next printer of the rule gets the job.
 */
export function isRejectionOfOurData(error: PrinterRejectedJob): boolean {
  return error.status === 400 || error.status === 422;
}
