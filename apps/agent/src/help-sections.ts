import { FAMILY_NAMES } from './families.js';

// Sections several help texts share.

/** The options every command takes, for the end of a help text. */
export const COMMON = `Options for every command
  --cwd <dir>        Working directory and sandbox root (default: the current directory)
  --preset <name>    Permission preset: sandboxed (default), trusted or yolo
  --allow <path>     Also allow reading and writing under <path> (repeatable)
  --block <path>     Never allow <path>, whatever the preset (repeatable)
  --families <list>  Skill families to enable, comma-separated: ${FAMILY_NAMES.join(', ')}
                     (default: all but skills and agents; gitlab once GitLab
                     instances are configured)
  --config <file>    Read this config file instead of the one in your config directory
  -h, --help         Show help`;

/** The permission presets and how to widen them. */
export const PERMISSIONS = `Permissions
  sandboxed  Read and write inside the working directory only. No command execution,
             git read-only, no GitLab. Nothing needs confirmation.
  trusted    Read anywhere not blocked; write inside the working directory, elsewhere
             only once you confirm. Command execution, git writes and GitLab enabled;
             destructive actions ask first.
  yolo       Anything not blocked, never asks.

  To widen: --preset trusted (or yolo), --allow <path> for another directory, or the
  same in your config file. Confirmations are asked in the MCP client (nexus mcp) or
  on the terminal (nexus call); where nobody can be asked, the action is refused.`;

/** The config files and their fields. */
export const CONFIGURATION = `Configuration
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
