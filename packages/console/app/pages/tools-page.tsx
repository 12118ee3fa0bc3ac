import type { Rpc } from '../rpc.js';

/** The tools playground. */
export function ToolsPage(_props: { rpc: Rpc }) {
  return (
    <section aria-labelledby="tools-heading">
      <h1 id="tools-heading">Tools</h1>
      <p>Coming next.</p>
    </section>
  );
}
