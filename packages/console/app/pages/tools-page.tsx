import { useEffect, useState } from 'preact/hooks';
import { ErrorLine, useAction } from '../action.js';
import type { Rpc } from '../rpc.js';
import { argumentsOf, type FieldValues, type ObjectSchema, SchemaFields } from '../schema-form.js';

interface Tool {
  name: string;
  description: string;
  parameters: ObjectSchema;
}

interface ToolResult {
  success: boolean;
  output: string;
  error: string;
  kind?: string;
}

/** The tools playground: the tools a preset enables, a form from the chosen one's JSON Schema, its `ToolResult`. */
export function ToolsPage({ rpc }: { rpc: Rpc }) {
  const [preset, setPreset] = useState('sandboxed');
  const [tools, setTools] = useState<Tool[] | undefined>();
  const [chosen, setChosen] = useState<Tool | undefined>();
  const [values, setValues] = useState<FieldValues>({});
  const [result, setResult] = useState<ToolResult | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    setTools(undefined);
    rpc.call<{ tools: Tool[] }>('list_tools', { preset }).then(
      ({ tools }) => {
        setTools(tools);
        setError('');
      },
      (failure: Error) => setError(failure.message),
    );
  }, [rpc, preset]);
  const run = useAction(async () => {
    if (!chosen) return;
    setResult(undefined);
    setResult(await rpc.call<ToolResult>('run_tool', { preset, name: chosen.name, arguments: argumentsOf(chosen.parameters, values) }));
  });
  const choose = (tool: Tool) => {
    setChosen(tool);
    setValues({});
    setResult(undefined);
  };
  return (
    <section aria-labelledby="tools-heading">
      <h1 id="tools-heading">Tools</h1>
      <p class="hint">Runs a tool as an agent of this level in the server's directory would — through the same policy, without a model.</p>
      <label>
        Preset{' '}
        <select value={preset} onChange={(event) => setPreset(event.currentTarget.value)}>
          <option value="sandboxed">sandboxed</option>
          <option value="trusted">trusted</option>
        </select>
      </label>
      <ErrorLine error={error} />
      {tools === undefined ? (
        <p class="loading">Loading tools…</p>
      ) : (
        <ul class="tool-list" aria-label="Tools">
          {tools.map((tool) => (
            <li key={tool.name}>
              <button type="button" aria-pressed={chosen?.name === tool.name} onClick={() => choose(tool)}>
                {tool.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {chosen && (
        <form
          class="schema-form"
          onSubmit={(event) => {
            event.preventDefault();
            run.run();
          }}
        >
          <h2>{chosen.name}</h2>
          <p>{chosen.description}</p>
          <SchemaFields schema={chosen.parameters} values={values} onChange={setValues} idPrefix={`tool-${chosen.name}`} />
          <button type="submit">Run {chosen.name}</button>
          <ErrorLine error={run.error} />
        </form>
      )}
      {result && (
        <section class="tool-result" aria-label="Result">
          <h2>
            Result:{' '}
            <span class={result.success ? 'ok' : 'failed'}>
              {result.success ? 'success' : `failed${result.kind ? ` (${result.kind})` : ''}`}
            </span>
          </h2>
          {result.output && <pre>{result.output}</pre>}
          {result.error && <pre class="error">{result.error}</pre>}
        </section>
      )}
    </section>
  );
}
