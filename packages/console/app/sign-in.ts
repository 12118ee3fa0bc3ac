import * as oauth from 'oauth4webapi';
import { IssuerSession } from './issuer-session.js';

/** How the page signs in through the issuer (`/console/sign-in.json`, served when the server has `auth.consoleClientId`). */
export interface SignInSettings {
  issuer: string;
  clientId: string;
  scope: string;
  resource: string;
}

/** What the page keeps across the trip to the issuer: the PKCE verifier and the state (never a token). */
interface PendingSignIn {
  verifier: string;
  state: string;
}

const PENDING = 'nexus-console-sign-in';

/** The settings of signing in, or `undefined` when this server offers none. */
export async function signInSettings(): Promise<SignInSettings | undefined> {
  const response = await fetch('/console/sign-in.json');
  return response.ok ? ((await response.json()) as SignInSettings) : undefined;
}

/** The issuer's metadata; plain http only for an issuer on this machine (a development one). */
async function authorizationServer(settings: SignInSettings) {
  const issuer = new URL(settings.issuer);
  const options = { [oauth.allowInsecureRequests]: ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname) };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oidc' }));
  return { as, client: { client_id: settings.clientId }, options };
}

/** The page itself, where the issuer sends the person back. */
const redirectUri = () => `${location.origin}/console/`;

/**
 * Sends the person to the issuer to sign in: authorization code with PKCE (S256) and a state; the
 * verifier and state wait in this tab's session storage for the way back.
 */
export async function startSignIn(settings: SignInSettings): Promise<void> {
  const { as } = await authorizationServer(settings);
  if (!as.authorization_endpoint) throw new Error(`${settings.issuer} names no authorization endpoint.`);
  const pending: PendingSignIn = { verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState() };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(as.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: settings.scope,
    resource: settings.resource,
    state: pending.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url);
}

/**
 * Finishes a sign-in the issuer sent the person back from: the code and state leave the address
 * at once, the state must be the one sent, and the code is exchanged with the verifier. The tokens
 * are held in memory only, by the session returned, which renews the access token with the
 * refresh token (no `offline_access` is asked: it is the issuer's own session that lasts) and
 * tells `onEnded` when it cannot. `undefined` when the address carries no answer.
 */
export async function finishSignIn(settings: SignInSettings, onEnded: () => void): Promise<IssuerSession | undefined> {
  const answer = new URL(location.href);
  if (!answer.searchParams.has('code') && !answer.searchParams.has('error')) return undefined;
  history.replaceState(null, '', `${location.pathname}#/agents`);
  const saved = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  if (!saved) throw new Error('No sign-in was under way in this tab; sign in again.');
  const pending = JSON.parse(saved) as PendingSignIn;
  const { as, client, options } = await authorizationServer(settings);
  const callback = oauth.validateAuthResponse(as, client, answer.searchParams, pending.state);
  const request = { ...options, additionalParameters: { resource: settings.resource } };
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, redirectUri(), pending.verifier, request);
  const renewal = async (refreshToken: string) =>
    oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, request));
  return new IssuerSession(await oauth.processAuthorizationCodeResponse(as, client, response), renewal, onEnded);
}
