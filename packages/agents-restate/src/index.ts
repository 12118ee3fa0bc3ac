export { AGENT_OBJECT } from './agent-object.js';
export type { RestateUrls } from './restate-client.js';
export type { RestateRuntimeOptions } from './restate-runtime.js';
export { RestateRuntime, startRestateRuntime } from './restate-runtime.js';
export type { WorkerAgentOptions } from './worker-agents.js';
