/**
 * What the dashboard uses to work with codes: the same services and rules as the API, so a rule lives once.
 * Every change takes the actor (the signed-in person) for the destination history.
 */
export { parseCodeFields, parseCodeName, MAX_NAME_LENGTH, type CodeFieldProblem, type CodeFieldsResult } from './code-input.js';
export { countQrCodes, InvalidCursorError, searchQrCodes, type CodeFilter, type CodeState } from './code-search.js';
export { MAX_URL_LENGTH, parseDestinationUrl } from '../destination-url.js';
export { listDestinationChanges, type Actor, type DestinationChange, type ShownActor } from './destination-history.js';
export {
  createQrCode,
  deleteQrCode,
  getQrCode,
  listRecentScans,
  updateQrCode,
  type QrCode,
  type Scan,
} from './qr-code-service.js';
