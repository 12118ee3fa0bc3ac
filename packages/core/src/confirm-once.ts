import { isWithin } from './paths.js';
import type { ConfirmationRequest, ConfirmFunction } from './service-container.js';

/**
 * Whether approving `approved` also approves `request`: the same tool, and a path inside the
 * approved path, or (without paths) the same action and detail.
 */
export function confirmationCovers(approved: ConfirmationRequest, request: ConfirmationRequest): boolean {
  if (approved.tool !== request.tool) return false;
  if (approved.path !== undefined && request.path !== undefined) return isWithin(request.path, approved.path);
  return approved.action === request.action && approved.detail === request.detail && approved.path === request.path;
}

/**
 * `ask` for the span of one call: a request like one already approved in it — or about a path
 * inside a path already approved — is approved without asking again, so a command that checks its
 * directory, its repository and the repository's git directory asks the user once. Refusals are
 * not remembered. The registry gives each call its own.
 */
export function confirmOncePerCall(ask: ConfirmFunction): ConfirmFunction {
  const approved: ConfirmationRequest[] = [];
  return async (request) => {
    if (approved.some((earlier) => confirmationCovers(earlier, request))) return true;
    const answer = (await ask(request)) === true;
    if (answer) approved.push(request);
    return answer;
  };
}
