import { useState } from 'preact/hooks';

/** An action a button starts: its error, shown until the next run succeeds. */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [error, setError] = useState('');
  return {
    error,
    run: (...args: A) => {
      action(...args).then(
        () => setError(''),
        (failure: Error) => setError(failure.message),
      );
    },
  };
}

/** An action's error, announced. */
export function ErrorLine({ error }: { error: string }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}
