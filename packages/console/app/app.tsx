import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { mayUseAdminPages } from './admin-pages.js';
import { Console } from './console.js';
import { IssuerSession } from './issuer-session.js';
import { type Credentials, fixedToken, Rpc, RpcError, tokenFromLink } from './rpc.js';
import { finishSignIn, type SignInSettings, signInSettings, startSignIn } from './sign-in.js';
import type { AgentInfo } from './types.js';

/**
 * Asks for the token once (or takes it from the one-time link, or signs in through the issuer when
 * the server offers it), then shows the console. The token stays in memory only; a session with
 * the issuer renews itself, and when it ends the person is offered to sign in again.
 */
export function App() {
  const [rpc, setRpc] = useState<Rpc | undefined>();
  const credentials = useRef<Credentials | undefined>();
  // The token is checked with list_agents, whose answer paints the first page at once.
  const [firstAgents, setFirstAgents] = useState<AgentInfo[] | undefined>();
  const [admin, setAdmin] = useState<boolean | undefined>();
  const [checking, setChecking] = useState(true);
  const [error, setError] = useState('');
  const [signIn, setSignIn] = useState<SignInSettings | undefined>();

  const tryCredentials = async (candidateCredentials: Credentials) => {
    const candidate = new Rpc(candidateCredentials);
    try {
      const { agents } = await candidate.call<{ agents: AgentInfo[] }>('list_agents');
      credentials.current = candidateCredentials;
      setFirstAgents(agents);
      // Asked after the first paint, which it would otherwise delay (the first list_tools makes a registry).
      setAdmin(undefined);
      mayUseAdminPages(candidate).then(setAdmin);
      setRpc(candidate);
      setError('');
    } catch (failure) {
      if (candidateCredentials instanceof IssuerSession) candidateCredentials.close();
      setError(failure instanceof RpcError && failure.status === 403 ? 'That token is wrong.' : String((failure as Error).message));
    }
  };

  const onRefused = useCallback(() => {
    // A session with the issuer has already tried to renew its token: it has ended.
    if (credentials.current instanceof IssuerSession) return credentials.current.end();
    setRpc(undefined);
    setError('The server refused the token (it may have restarted with a new one); enter it again.');
  }, []);

  useEffect(() => {
    const hadCode = location.hash.includes('code=');
    const start = async () => {
      const settings = await signInSettings().catch(() => undefined);
      setSignIn(settings);
      const onEnded = () => {
        setRpc(undefined);
        setError(`Your session with ${settings ? new URL(settings.issuer).host : 'the issuer'} ended; sign in again.`);
      };
      const session = settings && (await finishSignIn(settings, onEnded));
      if (session) return tryCredentials(session);
      const token = await tokenFromLink();
      if (token) await tryCredentials(fixedToken(token));
      else if (hadCode) setError('This link was used already; enter the token.');
    };
    start()
      .catch((failure: Error) => setError(`Signing in failed: ${failure.message}`))
      .finally(() => setChecking(false));
  }, []);

  if (rpc) return <Console rpc={rpc} firstAgents={firstAgents} admin={admin} onRefused={onRefused} />;
  if (checking) return <p class="loading">Connecting…</p>;
  return <TokenForm onToken={(token) => tryCredentials(fixedToken(token))} error={error} signIn={signIn} onSignInFailed={setError} />;
}

function TokenForm({
  onToken,
  error,
  signIn,
  onSignInFailed,
}: {
  onToken: (token: string) => void;
  error: string;
  signIn: SignInSettings | undefined;
  onSignInFailed: (message: string) => void;
}) {
  const [token, setToken] = useState('');
  return (
    <main class="token-form">
      <h1>Nexus console</h1>
      {signIn && (
        <button
          type="button"
          class="sign-in"
          onClick={() => startSignIn(signIn).catch((failure: Error) => onSignInFailed(`Signing in failed: ${failure.message}`))}
        >
          Sign in with {new URL(signIn.issuer).host}
        </button>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onToken(token.trim());
        }}
      >
        <label for="token">Server token</label>
        <p class="hint" id="token-hint">
          From the link <code>nexus serve</code> printed, or the file it names (<code>rpc-&lt;port&gt;.token</code>), or{' '}
          <code>NEXUS_API_KEY</code>. It stays in this page only.
        </p>
        <input
          id="token"
          type="password"
          autocomplete="off"
          aria-describedby="token-hint"
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <button type="submit">Open</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
