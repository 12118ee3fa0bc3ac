import { type AgentPermissions, type ConfirmFunction, resolvePreset, ServiceContainer } from '@nexus/core';
import { auditLogWriter } from './audit-log.js';
import { commandHooks } from './command-hooks.js';
import { reportExecIsolation } from './exec-isolation.js';
import type { Settings } from './resolve-settings.js';
import { startTelemetry } from './telemetry.js';

/** The permission policy the settings describe. */
export function permissionsOf(settings: Settings): AgentPermissions {
  return resolvePreset(settings.preset, {
    cwd: settings.cwd,
    allowedPaths: settings.allow,
    blockedPaths: settings.block,
    tools: settings.tools,
    rules: settings.rules,
  });
}

/**
 * The services skills use that the settings give, beside a working directory and a permission
 * policy: exec settings, GitLab instances, the config file's command hooks and the audit log's
 * writer, and, when given, how to ask the user for confirmation. Starts exporting traces when a
 * collector is configured.
 * One fresh container for each registry or agent: `nexus run` and `nexus chat`, the tool commands,
 * and every agent of `nexus serve`.
 */
export function buildServices(settings: Settings, confirm?: ConfirmFunction): ServiceContainer {
  startTelemetry(settings.telemetry);
  const services = new ServiceContainer().register('exec', settings.exec);
  if (confirm) services.register('confirm', confirm);
  if (settings.gitlab) services.register('gitlab', settings.gitlab);
  const isolation = () => reportExecIsolation(settings).then((report) => report.isolation);
  const onAudit = settings.audit.enabled ? auditLogWriter(settings.audit, isolation).sink : undefined;
  if (settings.hooks.beforeCall?.length || settings.hooks.afterCall?.length || onAudit) {
    services.register('callHooks', { ...commandHooks(settings.hooks), ...(onAudit ? { onAudit } : {}) });
  }
  return services;
}
