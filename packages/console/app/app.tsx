import { useCallback, useEffect, useState } from 'preact/hooks';
import { Console } from './console.js';
import { Rpc, RpcError, tokenFromLink } from './rpc.js';
import { finishSignIn, type SignInSettings, signInSettings, startSignIn } from './sign-in.js';
import type { AgentInfo } from './types.js';

/**
 * Asks for the token once (or takes it from the one-time link, or signs in through the issuer when
 * the server offers it), then shows the console. The token stays in memory only.
 */
export function App() {
  const [rpc, setRpc] = useState<Rpc | undefined>();
  // The token is checked with list_agents, whose answer paints the first page at once.
  const [firstAgents, setFirstAgents] = useState<AgentInfo[] | undefined>();
  const [checking, setChecking] = useState(true);
  const [error, setError] = useState('');
  const [signIn, setSignIn] = useState<SignInSettings | undefined>();

  const tryToken = async (token: string) => {
    const candidate = new Rpc(token);
    try {
      const { agents } = await candidate.call<{ agents: AgentInfo[] }>('list_agents');
      setFirstAgents(agents);
      setRpc(candidate);
      setError('');
    } catch (failure) {
      setError(failure instanceof RpcError && failure.status === 403 ? 'That token is wrong.' : String((failure as Error).message));
    }
  };

  const onRefused = useCallback(() => {
    setRpc(undefined);
    setError('The server refused the token (it may have restarted with a new one); enter it again.');
  }, []);

  useEffect(() => {
    const hadCode = location.hash.includes('code=');
    const start = async () => {
      const settings = await signInSettings().catch(() => undefined);
      setSignIn(settings);
      const signedIn = settings && (await finishSignIn(settings));
      if (signedIn) return tryToken(signedIn);
      const token = await tokenFromLink();
      if (token) await tryToken(token);
      else if (hadCode) setError('This link was used already; enter the token.');
    };
    start()
      .catch((failure: Error) => setError(`Signing in failed: ${failure.message}`))
      .finally(() => setChecking(false));
  }, []);

  if (rpc) return <Console rpc={rpc} firstAgents={firstAgents} onRefused={onRefused} />;
  if (checking) return <p class="loading">Connecting…</p>;
  return <TokenForm onToken={tryToken} error={error} signIn={signIn} onSignInFailed={setError} />;
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
