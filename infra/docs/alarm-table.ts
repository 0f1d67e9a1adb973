/** docs/operators.md's Alarms table, from the alarm kinds the stacks build (infra/cdk/constructs/monitoring.ts). */
import { ALARMS, type AlarmKind } from '../cdk/constructs/monitoring.ts';
import { table } from './stage-tables.ts';

export function alarmsTable(): string {
  const rows = Object.entries(ALARMS as Record<string, AlarmKind>).map(([name, kind]) => [
    `\`PetStore-<stage>-${name}\`${kind.canary ? ' (production; its deployment group rolls back on it)' : ''}`,
    `${kind.when}, in ${kind.window[0]} of ${kind.window[1]} minutes`,
    kind.breaching ? 'breaching' : 'not breaching',
    kind.action,
  ]);
  return table(['alarm', 'fires on', 'a minute without data', 'what to do'], rows, ['l', 'l', 'l', 'l']);
}
