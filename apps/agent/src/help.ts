import type { CommandName } from './command-line.js';
import { FAMILY_NAMES } from './families.js';

const COMMON = `Options for every command
  --cwd <dir>        Working directory and sandbox root (default: the current directory)
  --preset <name>    Permission preset: sandboxed (default), trusted or yolo
  --allow <path>     Also allow reading and writing under <path> (repeatable)
  --block <path>     Never allow <path>, whatever the preset (repeatable)
  --families <list>  Skill families to enable, comma-separated: ${FAMILY_NAMES.join(', ')}
                     (default: all but skills and agents; gitlab once GitLab
                     instances are configured)
  --config <file>    Read this config file instead of the one in your config directory
  -h, --help         Show help`;

const PERMISSIONS = `Permissions
  sandboxed  Read and write inside the working directory only. No command execution,
             git read-only, no GitLab. Nothing needs confirmation.
  trusted    Read anywhere not blocked; write inside the working directory, elsewhere
             only once you confirm. Command execution, git writes and GitLab enabled;
             destructive actions ask first.
  yolo       Anything not blocked, never asks.

  To widen: --preset trusted (or yolo), --allow <path> for another directory, or the
  same in your config file. Confirmations are asked in the MCP client (nexus mcp) or
  on the terminal (nexus call); where nobody can be asked, the action is refused.`;

const CONFIGURATION = `Configuration
  nexus.config.json in your config directory ($XDG_CONFIG_HOME/nexus/, default
  ~/.config/nexus/) and in the working directory, e.g.
    {
      "preset": "trusted",
      "allow": ["~/notes"],
      "block": ["~/.ssh", ".env"],
      "families": ["fs", "git"],
      "tools": { "write_file": { "requiresConfirmation": true } },
      "http": { "port": 8808 },
      "exec": { "sandbox": "auto", "network": true },
      "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"] } },
      "gitlab": { "instances": { "work": { "url": "https://gitlab.example.com", "tokenEnv": "GITLAB_TOKEN" } } },
      "providers": { "local": { "type": "openai-compatible", "baseUrl": "http://127.0.0.1:11434/v1" } },
      "models": { "fast": { "provider": "local", "id": "qwen3:8b", "contextWindow": 32768 } },
      "defaultModel": "fast",
      "agent": { "maxToolIterations": 100, "toolTimeoutSeconds": 120, "compactAt": 0.9 }
    }
  Flags win over the working directory's file, which wins over yours. A file in the
  working directory comes with the project, so it may only narrow permissions (block
  paths, disable tools, lower the preset); widening belongs in your own file or flags.
  GitLab instances are read from your own file only, and the gitlab family is on once
  one is configured. So are LLM providers and models (they decide where API keys go);
  provider types: openai, anthropic, openai-compatible; "apiKeyEnv" names the variable
  holding the key (baseUrl: https, or http on a loopback address). Relative paths resolve against the working directory.
  exec.sandbox: commands run inside bubblewrap ("auto": at trusted where it is
  installed; "bubblewrap": always, refused where missing; "none": never).
  mcpServers: MCP servers whose tools to import, from your own file only (see
  \`nexus mcp-servers --help\`).
  \`nexus config\` shows the result (tokens hidden) and exec.isolation.`;

const MAIN = `nexus — safe, well-described tools for LLM agents: serve them to any MCP client,
or run one from the shell.

Usage
  nexus <command> [options]

Commands
  tools               List the tools the current permissions enable
  call <tool> [args]  Run one tool and print its output
  skills <action>     SKILL.md skill packages: list, check, trust, run, new
  run <prompt | ->    Run one agent turn with the enabled tools, answer on stdout
  chat                Talk with an agent interactively
  models              List the configured model aliases
  serve [--port N]    Run the agent server (JSON-RPC on 127.0.0.1, default port 8765)
  mcp                 Serve the tools over MCP: stdio, or --http [port]
  mcp-servers list    List the imported MCP servers: state, tool count, last error
  mcp-servers tools <name>
                      List one imported MCP server's tools
  agents <action>     Talk to an agent server: list, create, send, status, cancel,
                      destroy, shutdown
  config              Print the effective configuration
  help [command]      Show help for a command

${COMMON}
  -V, --version      Print the version

${PERMISSIONS}

${CONFIGURATION}

Environment
  XDG_CONFIG_HOME    Where your config directory is (default ~/.config)
  NEXUS_MCP_TOKEN    Bearer token for nexus mcp --http (default: random per run)
  NEXUS_API_KEY      Bearer token of the agent server, for nexus agents (default: the
                     server's token file in $XDG_STATE_HOME/nexus)

Exit status: 0 success, 1 a tool failed, the model provider failed or an unexpected
error, 2 bad usage or configuration, 130 interrupted.

Examples
  nexus tools
  nexus call read_file '{"path": "README.md"}'
  nexus run "Summarise README.md in three lines"
  nexus mcp --preset trusted
  nexus mcp --http 8808

Run \`nexus <command> --help\` for the options of one command.`;

const TOOLS = `Usage: nexus tools [options]

List the tools this configuration enables, as a table.

Options
  --all              Also list the tools the current permissions leave out, and why,
                     and whether commands run inside bubblewrap
                     (with --json: every tool's definition)
  --json             Print tool definitions as JSON instead
  --format <name>    With --json: openai (default), anthropic or mcp

${COMMON}

${PERMISSIONS}`;

const CALL = `Usage: nexus call <tool> [arguments] [options]

Run one tool and print its output. Arguments are a JSON object, or name=value pairs
(values are converted to the parameter's type):
  nexus call read_file '{"path": "src/index.ts", "offset": 10}'
  nexus call read_file path=src/index.ts offset=10

Exit status: 0 when the tool succeeded, 1 when it failed, 2 on bad usage.
Confirmations are asked on the terminal; when stdin is not a terminal they are refused.

Options
  --json             Print the whole result as JSON: { success, output, error, kind, data }

${COMMON}

${PERMISSIONS}`;

const RUN = `Usage: nexus run [--model <alias>] [--json] <prompt | ->

Run one agent turn: the model (default: the config's defaultModel) gets the prompt
(\`-\`: read from stdin) and the tools these permissions enable; every tool call goes
through the same policy as \`nexus call\`. The answer streams to stdout; each tool call
and its result is one line on stderr:
  → read_file path=a.txt
  ✓ read_file 12 lines
  ✗ write_file forbidden: …

Exit status: 0 on an answer (also when the turn stopped at agent.maxToolIterations,
with a warning), 1 when the model provider failed, 2 on bad usage or configuration
(unknown alias, the key's variable unset), 130 on Ctrl-C (the turn is cancelled and
every command it started is stopped).
Confirmations are asked on the terminal; when stdin is not a terminal they are refused.

Options
  --model <alias>    A model alias from the config's "models"
  --json             Print { content, request_id, halted_at_iteration_limit, usage,
                     tool_calls: [{ name, arguments, success, kind }] } instead

${COMMON}

${PERMISSIONS}`;

const CHAT = `Usage: nexus chat [--model <alias>]

Talk with an agent: the answer streams as it comes, tool calls show as they run, and
confirmations are asked inline. Ctrl-C cancels the running turn; at the prompt it exits.
When stdin is not a terminal, each line is a message (for scripts).

Commands in the chat
  /status    Tokens and context of the conversation, as JSON
  /compact   Summarise older messages now
  /clear     Forget the conversation
  /exit      Leave (so does end of input)

Options
  --model <alias>    A model alias from the config's "models"

${COMMON}

${PERMISSIONS}`;

const SERVE = `Usage: nexus serve [--port N]

Run the agent server: agents that create and command agents, over JSON-RPC 2.0 on
127.0.0.1 (default port 8765, 0 for any free one) until Ctrl-C or shutdown_server.
Every request needs "Authorization: Bearer <token>": NEXUS_API_KEY when set (16+
characters), else a fresh token written to $XDG_STATE_HOME/nexus/rpc-<port>.token
(mode 0600), where \`nexus agents\` and the nexus_* tools find it. Agents get the
enabled families, the agent-control tools and the tools of your mcpServers (started
once, ended with the server); a child agent's permissions stay below its parent's. Sessions are saved after every turn in
$XDG_STATE_HOME/nexus/sessions/ and restored on demand.

Options
  --port <N>         Port to listen on (default 8765)

${COMMON}`;

const MODELS = `Usage: nexus models [--json]

List the configured model aliases: provider, type, endpoint host, model id, whether the
API key's variable is set (never the key) and which is the default.

Options
  --json             Print [{ alias, provider, type, host, id, keySet, default }]

${COMMON}`;

const mcpHelp = (cliPath: string) => `Usage: nexus mcp [options]

Serve the tools over the Model Context Protocol. By default over stdio, for MCP
clients that start the server themselves. Add to the client's configuration
(Claude Desktop, Claude Code, Cursor …):
  { "mcpServers": { "nexus": { "command": "node", "args": [${JSON.stringify(cliPath)}, "mcp", "--cwd", "/path/to/project"] } } }

With --http, serve Streamable HTTP on 127.0.0.1 instead and print the URL and the
bearer token clients must send ("Authorization: Bearer <token>"). The token comes
from NEXUS_MCP_TOKEN when set (at least 16 characters), else it is random.

Options
  --http [port]      Serve Streamable HTTP (default port: the config's http.port, else any free port)
  --host <address>   Address to listen on with --http (default 127.0.0.1)

${COMMON}

${PERMISSIONS}`;

const MCP_SERVERS = `Usage: nexus mcp-servers list [--json]
       nexus mcp-servers tools <name> [--json]

MCP servers whose tools Nexus imports, from "mcpServers" in your own config file (a
working directory's file may not add servers: they run programs and decide where
headers go). Each entry has the shape MCP clients use, plus Nexus fields:
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"],
               "readOnly": true },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/",
                "headers": { "Authorization": "Bearer …" }, "level": "yolo" },
    "old": { "command": "legacy-server", "enabled": false }
  }
  command, args, env, cwd   A stdio server; it starts with a sanitised environment plus env
  type "http", url, headers A Streamable HTTP server
  level                     Lowest preset its tools are offered at (default trusted)
  readOnly                  Offer its tools that say readOnlyHint at sandboxed
  enabled                   false: keep the entry, start nothing
  timeoutSeconds            Per call while the server is silent (default 60; progress resets it)
  maxTotalSeconds           Per call in all (default 600)

Imported tools are named mcp__<server>__<tool> and appear in nexus tools, call and mcp
(also in agents); at trusted the first call to a server asks for confirmation. Servers
start in parallel when a command needs the tools and end with it; a server that crashes
starts again at the next call (at most 3 times in 5 minutes, then it is failed).

Actions
  list               One line per server: name, transport, state (running, stopped,
                     failed, disabled), tool count, last error
  tools <name>       The server's tools as imported, and whether the permissions offer them

Options
  --json             list: [{ name, transport, state, toolCount, lastError }];
                     tools: [{ name, description, readOnly, destructive, minimumLevel, enabled }]

${COMMON}`;

const AGENTS = `Usage: nexus agents [--port <n>] <action> [arguments] [--json]

A client of the agent server (nexus serve) on 127.0.0.1: each action is one JSON-RPC call.

Actions
  list                        The server's agents: id, level, parent, messages, model, cwd
  create <id> [options]       Create an agent (trusted or sandboxed, default sandboxed)
  send <id> <text>            Send a message and print the agent's answer (the rest of the
                              words are the text)
  status <id>                 Tokens and context: { tokens, context } with --json
  cancel <id> <request_id>    Cancel a running or queued turn (exit 1 when none was)
  destroy <id>                Destroy an agent and its saved session
  shutdown                    Stop the server and every agent

Options
  --port <n>         The server's port (default 8765)
  --json             Print the method's result as JSON
  create only:
  --preset <name>    trusted or sandboxed (default sandboxed)
  --cwd <dir>        The agent's working directory (default: the server's)
  --write-path <p>   A path the agent may write (repeatable); a sandboxed agent without
                     any writes nothing
  --model <alias>    A model alias of the server's config
  --message <text>   A first message, queued (its request id is printed)
  Relative paths are relative to the current directory.

The token: NEXUS_API_KEY when set, else the file the server wrote,
$XDG_STATE_HOME/nexus/rpc-<port>.token (default ~/.local/state/nexus), which must be
readable by you only (chmod 600). It is sent to 127.0.0.1 only.

Exit status: 0 success, 1 the server refused or failed (or is not running), a send was
cancelled or a cancel found nothing, 2 bad usage.

Examples
  nexus agents create worker --cwd src --write-path src/out --message "List the TODOs"
  nexus agents send worker "Now fix the first one"
  nexus agents status worker --json
  nexus agents destroy worker`;

const CONFIG = `Usage: nexus config [options]

Print the effective configuration as JSON: the files read, the preset, paths,
families, per-tool settings, the resolved permission policy and the enabled tools.

${COMMON}

${CONFIGURATION}`;

const SKILLS = `Usage: nexus skills <action> [arguments] [options]

SKILL.md skill packages: folders with a SKILL.md (YAML frontmatter, then instructions for
the model), found in <cwd>/.nexus/skills, <cwd>/.agents/skills, <cwd>/.claude/skills (the
project's) and $XDG_CONFIG_HOME/nexus/skills, ~/.agents/skills and the config's skills.roots
(yours). --families ...,skills offers their commands as tools, and the skill tool for their
instructions, to MCP clients and agents.

Actions
  list                List the packages: name, folder, root, trusted, commands, usage, problems
  check [path]        Check every package (or the package or folder at path): problems with
                      file:line:col, portability notes and the seed 004 checklist. Exit 1 on errors
  trust <name>|--all  Trust a project package as it is now: its commands are offered until a file
                      of it changes. Your own packages are always trusted
  run <name>[.<command>] [name=value ...]
                      Run a package's command (arguments as in nexus call). Commands need
                      --preset trusted or higher
  new <name>          Create <cwd>/.nexus/skills/<name>/ from a template (--user: in your skills folder)

Options
  --json             list and check: print JSON; run: the whole result
  --all              trust: every project package
  --user             new: create the package in $XDG_CONFIG_HOME/nexus/skills

Commands run without a shell, in the working directory, with a sanitised environment, for at
most 60 s. Trust and usage records are kept in $XDG_STATE_HOME/nexus (default ~/.local/state/nexus).
Config: "skills": { "roots": ["~/my-skills"], "outputDirectory": "mybox/output" } (roots from
your own config file only).

${COMMON}`;

const HELP = `Usage: nexus help [command]

Show help for nexus or one of its commands: ${['tools', 'call', 'skills', 'run', 'chat', 'models', 'mcp', 'mcp-servers', 'agents', 'config'].join(', ')}.`;

/** The help text of a command, or of `nexus` itself; `cliPath` is the script MCP clients should start. */
export function helpText(command: CommandName | undefined, cliPath: string): string {
  const texts: Record<CommandName, string> = {
    tools: TOOLS,
    call: CALL,
    skills: SKILLS,
    run: RUN,
    chat: CHAT,
    models: MODELS,
    serve: SERVE,
    mcp: mcpHelp(cliPath),
    'mcp-servers': MCP_SERVERS,
    agents: AGENTS,
    config: CONFIG,
    help: HELP,
  };
  return command ? texts[command] : MAIN;
}
