import { authorizePath, normalizePath, type ServiceContainer, type SkillContext } from '@nexus/core';
import { agentIdParameter, defineAgentSkill } from '../define-agent-skill.js';
import { SEND_RESULT_SCHEMA } from '../send-result-schema.js';

/** Arguments of `nexus_create`. Blank strings (and blank list items) count as omitted. */
export interface NexusCreateArguments {
  agent_id: string;
  preset?: 'trusted' | 'sandboxed' | '';
  cwd?: string;
  allowed_write_paths?: string[];
  disable_tools?: string[];
  model?: string;
  initial_message?: string;
  wait_for_initial_response?: boolean;
  port?: number;
}

/** Longest model alias the skill passes on. */
export const MAXIMUM_MODEL_LENGTH = 128;

function given(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

function givenItems(items: readonly string[] | undefined): string[] | undefined {
  const kept = items?.filter((item) => item.trim() !== '');
  return kept && kept.length > 0 ? kept : undefined;
}

/**
 * Over HTTP the server sees the token holder, not this agent, so the paths are checked here against
 * this agent's own sandbox and sent absolute: the child's working directory must be readable (writable
 * for a trusted child, which writes there), each write path writable — a write outside asks first.
 */
async function authorizeChildPaths(
  services: ServiceContainer,
  context: SkillContext,
  preset: string | undefined,
  cwd: string | undefined,
  writePaths: string[] | undefined,
): Promise<{ cwd: string; writePaths: string[] | undefined }> {
  const { confirm } = context;
  const childCwd = await authorizePath(services, 'nexus_create', normalizePath(cwd ?? '.', services.getCwd()), {
    access: preset === 'trusted' ? 'write' : 'read',
    mustExist: true,
    confirm,
  });
  const authorized: string[] = [];
  for (const path of writePaths ?? [])
    authorized.push(await authorizePath(services, 'nexus_create', normalizePath(path, childCwd), { access: 'write', confirm }));
  return { cwd: childCwd, writePaths: writePaths && authorized };
}

/**
 * `nexus_create`: creates an agent on the agent server (`create_agent`). The server decides the
 * ceiling — a child's level strictly below its creator's, its paths inside the creator's — and, with
 * `initial_message`, queues that first turn (or waits for it with `wait_for_initial_response`).
 */
export const nexusCreateSkill = defineAgentSkill<NexusCreateArguments>({
  name: 'nexus_create',
  title: 'Create agent',
  outputSchema: {
    type: 'object',
    properties: {
      agent_id: { type: 'string' },
      url: { type: 'string', description: '/agent/<id>' },
      initial_request_id: { type: ['string', 'integer'] },
      initial_status: { const: 'queued' },
      response: SEND_RESULT_SCHEMA,
    },
    required: ['agent_id', 'url'],
  },
  description:
    'Create an agent on the Nexus agent server (your child, when you run in that server): its permission preset (below your own), working directory, ' +
    'the paths it may write and tools to disable. Optionally give it a first message; its answer comes with the result when ' +
    'wait_for_initial_response is true, otherwise the turn is queued (read it later with nexus_send or nexus_status).',
  minimumLevel: 'trusted',
  parameters: {
    type: 'object',
    properties: {
      agent_id: agentIdParameter('Id of the new agent, e.g. "worker-1"; a leading "." makes a temporary agent that is never saved.'),
      preset: {
        type: 'string',
        enum: ['sandboxed', 'trusted', ''],
        description: 'Permission preset of the new agent (default sandboxed); it must be below your own level.',
      },
      cwd: { type: 'string', description: 'Working directory of the new agent, relative to yours (default: yours).' },
      allowed_write_paths: {
        type: 'array',
        items: { type: 'string' },
        description: 'Paths the new agent may write, relative to its working directory. A sandboxed agent without any writes nothing.',
      },
      disable_tools: {
        type: 'array',
        items: { type: 'string' },
        description: 'Tools the new agent may not use, on top of those disabled for you.',
      },
      model: { type: 'string', maxLength: MAXIMUM_MODEL_LENGTH, description: "Model alias of the new agent (default: the server's)." },
      initial_message: { type: 'string', description: 'A first message for the new agent.' },
      wait_for_initial_response: {
        type: 'boolean',
        description: 'Wait for the answer to initial_message and include it in the result (default false: the turn is queued).',
      },
    },
    required: ['agent_id'],
  },
  async run(args, { connection, inProcess }, { services, context }) {
    const preset = given(args.preset);
    const model = given(args.model);
    const initialMessage = given(args.initial_message);
    const disabledTools = givenItems(args.disable_tools);
    let cwd = given(args.cwd);
    let writePaths = givenItems(args.allowed_write_paths);
    if (!inProcess) ({ cwd, writePaths } = await authorizeChildPaths(services, context, preset, cwd, writePaths));
    const params = {
      agent_id: args.agent_id,
      ...(preset === undefined ? {} : { preset }),
      ...(cwd === undefined ? {} : { cwd }),
      ...(writePaths === undefined ? {} : { allowed_write_paths: writePaths }),
      ...(disabledTools === undefined ? {} : { disable_tools: disabledTools }),
      ...(model === undefined ? {} : { model }),
      ...(initialMessage === undefined
        ? {}
        : { initial_message: initialMessage, ...(args.wait_for_initial_response ? { wait_for_initial_response: true } : {}) }),
    };
    return { result: await connection.call('create_agent', params) };
  },
});
