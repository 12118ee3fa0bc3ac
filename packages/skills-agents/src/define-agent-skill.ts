import {
  AGENT_ID_PATTERN,
  defineSkill,
  type JsonSchema,
  type JsonSchemaObject,
  type JsonValue,
  PermissionDeniedError,
  type ServiceContainer,
  type SkillContext,
  type SkillMetadata,
  type SkillSpec,
  ToolResult,
  validateAgentId,
} from '@nexus/core';
import { type AgentServerConnection, DEFAULT_AGENT_SERVER_PORT } from '@nexus/core/agent-server';
import { connectToAgentServer } from './connect-to-agent-server.js';

/** The `agent_id` parameter, described for the skill at hand. */
export function agentIdParameter(description: string): JsonSchema {
  return { type: 'string', pattern: AGENT_ID_PATTERN, description: `${description} Letters, digits, ".", "_" and "-".` };
}

const PORT_PARAMETER: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: 65_535,
  description: `Port of the agent server (default: the server this agent runs in, else ${DEFAULT_AGENT_SERVER_PORT}).`,
};

/** Which agent server a call goes to. */
export interface AgentServerRoute {
  readonly connection: AgentServerConnection;
  /** The server this agent runs in (which knows the agent as the caller), not one reached over HTTP as the token holder. */
  readonly inProcess: boolean;
}

/** What an agent-control skill's body answers: the method's result, and a line the model should not miss. */
export interface AgentSkillAnswer {
  result: unknown;
  warning?: string;
}

/** What {@link defineAgentSkill} takes. */
export interface AgentSkillDefinition<Args> extends SkillMetadata {
  name: string;
  /** The skill's own parameters as a JSON Schema object; `port` is added to every skill. */
  parameters: JsonSchemaObject;
  run(args: Args, route: AgentServerRoute, call: { services: ServiceContainer; context: SkillContext }): Promise<AgentSkillAnswer>;
}

/**
 * The server a call goes to: the one this agent runs in (the `agentServer` service) when `port` is
 * absent or its port; otherwise the server on `port` over HTTP. Inside a server, reaching another
 * one over HTTP would act as that server's token holder, beyond this agent's own permissions — only
 * a `yolo` agent may.
 */
function routeFor(services: ServiceContainer, port: number | undefined, tool: string): AgentServerRoute {
  const own = services.get('agentServer');
  if (own && (port === undefined || port === own.port)) return { connection: own, inProcess: true };
  if (own && services.getPermissionLevel() !== 'yolo') {
    throw new PermissionDeniedError(
      `${tool} may reach only the agent server this agent runs in (port ${own.port}), not port ${port}: over HTTP it would act as that server's token holder.`,
    );
  }
  return { connection: connectToAgentServer({ port: port ?? DEFAULT_AGENT_SERVER_PORT }), inProcess: false };
}

/**
 * Defines an agent-control skill: `port` added to its parameters (closed to others), `agent_id`
 * checked by core's rule, the server chosen by {@link routeFor}, and the method's result given back as pretty JSON text and as `data`,
 * with the body's warning after it.
 */
export function defineAgentSkill<Args extends { port?: number }>(definition: AgentSkillDefinition<Args>): SkillSpec {
  const { run, parameters, ...metadata } = definition;
  const hasAgentId = 'agent_id' in (parameters.properties ?? {});
  const agentIdRequired = parameters.required?.includes('agent_id') ?? false;
  return defineSkill<Args>({
    ...metadata,
    parameters: { additionalProperties: false, ...parameters, properties: { ...parameters.properties, port: PORT_PARAMETER } },
    create: (services) => async (args, context) => {
      const agentId = (args as { agent_id?: unknown }).agent_id;
      if (hasAgentId && (agentIdRequired || agentId !== undefined)) validateAgentId(agentId);
      const route = routeFor(services, args.port, metadata.name);
      const { result, warning } = await run(args, route, { services, context });
      const text = JSON.stringify(result ?? null, null, 2);
      return ToolResult.ok(warning === undefined ? text : `${text}\n\n${warning}`, (result ?? null) as JsonValue);
    },
  });
}
