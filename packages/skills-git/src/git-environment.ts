import type { PermissionLevel } from '@nexus/core';

/**
 * Variables every git run gets on top of the sanitised environment (which already drops every
 * inherited `GIT_*` variable): never prompt, never page, never open an editor. Below yolo also no
 * system-wide config or attributes and only ordinary transports — none at all for read-only
 * commands, which need no network — and read-only commands take no optional locks (so
 * `status` does not rewrite the index).
 */
export function gitEnvironment(level: PermissionLevel, readOnly: boolean): Record<string, string> {
  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_MERGE_AUTOEDIT: 'no',
  };
  if (level === 'yolo') return env;
  Object.assign(env, {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_ALLOW_PROTOCOL: readOnly ? 'none' : 'file:git:http:https:ssh',
  });
  if (readOnly) env.GIT_OPTIONAL_LOCKS = '0';
  return env;
}
