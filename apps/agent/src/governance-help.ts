// The help section on rules, hooks, the audit log and traces (`nexus help config`).

/** Rules, hooks, the audit log and traces in the config files. */
export const GOVERNANCE = `Rules
  "rules": ordered { "tool", "match"?, "decision", "reason"? } entries, e.g.
    "rules": [
      { "tool": "git", "match": { "command": "push origin *" }, "decision": "allow" },
      { "tool": "git", "match": { "command": "push *" }, "decision": "ask", "reason": "pushes are reviewed" },
      { "tool": "bash_safe", "match": { "command": "rm *" }, "decision": "deny", "reason": "no deletes" },
      { "tool": "read_file", "match": { "path": "secrets/**" }, "decision": "deny" }
    ]
  The first rule whose tool and every pattern match decides: deny refuses without
  asking, ask asks as a confirmation does, allow ends the search. No match: the
  preset decides. A rule never widens the preset (a disabled tool stays disabled, a
  tool that requires confirmation still asks). Patterns are globs; path arguments
  (path, source, destination, target, cwd, *_path, *_file) and their patterns are
  resolved against the working directory first (.., ~, symlinks), where * stays in
  one directory and ** crosses them; in other text * matches anything. A rule naming
  a tool or argument that does not exist is an error. The working directory's rules
  come first, and may not allow.

Hooks (your own file only)
  "hooks": { "beforeCall": [ { "command": ["/usr/local/bin/check-call"], "tools": ["git"],
             "timeoutSeconds": 10 } ], "afterCall": [] }
  Programs run without a shell before (after) each call of the listed tools (default:
  all). Each gets the call as JSON on stdin: { "tool", "arguments", "caller",
  "agent_id"?, "cwd", "level" } (and "result" after the call). Before a call it
  answers { "decision": "allow" | "deny", "reason"?, "arguments"? } on stdout;
  new arguments are checked again and still meet the rules. After a call it may
  answer { "output": "..." } to replace the output (to redact it). A program that
  fails, answers nonsense or takes longer than timeoutSeconds (default 10) denies
  the call (withholds its result), and the refusal says so.

Audit log (your own file only)
  "audit": { "enabled": true, "maxBytes": 10485760, "keep": 5 }
  On by default: every call appends one JSON line to $XDG_STATE_HOME/nexus/audit.jsonl
  (0600; rotated to audit.jsonl.1 … .<keep> past maxBytes): time, caller, tool,
  arguments (secrets redacted, long values digested), the decision (allow, ask,
  deny) and what made it (preset, rule N, a hook), the confirmation and who gave
  it, the policy's digest, isolation, the skill package's digest, the result and
  the duration. \`nexus audit\` reads it.

Traces (your own file only)
  "telemetry": { "otlp": { "endpoint": "http://127.0.0.1:4318", "headers": {} } }
  Exports OpenTelemetry spans as OTLP/HTTP JSON to <endpoint>/v1/traces: one
  execute_tool span per call (GenAI attributes, and nexus.decision,
  nexus.decided_by, the policy and package digests), under the caller's span.
  Without "telemetry" nothing is exported.`;
