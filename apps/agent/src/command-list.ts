import type { Command } from './command.js';
import { agentsCommand } from './commands/agents.js';
import { auditCommand } from './commands/audit.js';
import { callCommand } from './commands/call.js';
import { chatCommand } from './commands/chat.js';
import { configCommand } from './commands/config.js';
import { helpCommand } from './commands/help.js';
import { mcpCommand } from './commands/mcp.js';
import { mcpServersCommand } from './commands/mcp-servers.js';
import { modelsCommand } from './commands/models.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import { skillsCommand } from './commands/skills.js';
import { toolsCommand } from './commands/tools.js';

const COMMANDS_BUT_HELP: readonly Command[] = [
  toolsCommand,
  callCommand,
  skillsCommand,
  runCommand,
  chatCommand,
  modelsCommand,
  serveCommand,
  mcpCommand,
  mcpServersCommand,
  agentsCommand,
  auditCommand,
  configCommand,
];

/** `nexus help`, also what `nexus`, `nexus --help` and `nexus <command> --help` run. */
export const HELP_COMMAND = helpCommand(COMMANDS_BUT_HELP);

/**
 * Every `nexus` command, in the order `nexus --help` lists them: adding a command is its module
 * in `commands/` and one line here. Modules load large packages (the MCP SDK, the model
 * providers) inside their run functions, so that parsing a command line loads none of them.
 */
export const COMMANDS: readonly Command[] = [...COMMANDS_BUT_HELP, HELP_COMMAND];
