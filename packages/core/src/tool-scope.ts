/**
 * The tools an agent may use while it follows one skill's instructions (a SKILL.md package's
 * `allowed-tools`): registered as the `toolScope` service, it narrows the policy that
 * `ServiceContainer.getPermissions()` answers, so the registry's gate refuses — and listings leave
 * out — every other tool. It only ever narrows: a tool in it that the policy refuses stays refused.
 */
export interface ToolScope {
  /** The skill whose instructions the agent follows. */
  readonly skill: string;
  /** The tools allowed meanwhile. */
  readonly tools: readonly string[];
}

/** Why `tool` is outside `scope`, or `undefined` when it is inside. */
export function findScopeRefusal(scope: ToolScope | undefined, tool: string): string | undefined {
  if (!scope || scope.tools.includes(tool)) return undefined;
  return `Tool "${tool}" is not one of the tools the skill "${scope.skill}" allows (${scope.tools.join(', ')}) while the agent follows it; taking another skill leaves it.`;
}
