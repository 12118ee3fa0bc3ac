export type {
  AgentEvent,
  AgentOptions,
  ApprovalResolution,
  CompactResult,
  ContextReport,
  SendOptions,
  TokenReport,
  ToolCallRecord,
  TurnCheckpoint,
  TurnJournal,
  TurnResult,
  TurnStep,
  TurnUsage,
} from './agent.js';
export { Agent, DEFAULT_COMPACT_AT, DEFAULT_MAX_TOOL_ITERATIONS } from './agent.js';
export type { AgentPoolOptions } from './agent-pool.js';
export { AgentPool } from './agent-pool.js';
export type { AgentRuntime, PoolSendOptions } from './agent-runtime.js';
export type { AgentDefaults, AgentSettings, ModelSettings, ProviderSettings, ProviderType } from './agent-settings.js';
export { agentSettingsSchema, DEFAULT_CONTEXT_WINDOW, PROVIDER_TYPES, parseAgentSettings } from './agent-settings.js';
export type { PausedTurn, TurnState } from './agent-turn.js';
export type { ApprovalDecision, ApprovalStatus, PendingApproval, RememberedApproval } from './approvals.js';
export type { AgentAssembly } from './assemble-agent.js';
export { assembleAgent } from './assemble-agent.js';
export { MAX_AGENT_DEPTH } from './child-permissions.js';
export type { ConsoleOptions } from './console-routes.js';
export type { PoolChange } from './pool-events.js';
export { ProviderError } from './provider-error.js';
export type { Requester } from './requester-policy.js';
export { TOKEN_HOLDER } from './requester-policy.js';
export type { ModelSummary, ResolvedModel } from './resolve-model.js';
export { resolveModel, summarizeModels } from './resolve-model.js';
export type { AgentServer, ServeAgentsOptions } from './serve-agents.js';
export { serveAgents } from './serve-agents.js';
export type { Session } from './session-store.js';
export { SessionFileError } from './session-store.js';
export type { SkillPackageIndex } from './skill-packages-method.js';
export type { TurnWatch } from './turn-progress.js';
