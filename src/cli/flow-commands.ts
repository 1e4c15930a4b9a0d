/**
 * Operator commands for the embedded engine's flow runs (`npm run cli -- flow ...`): list the runs
 * under way or parked, retry a parked run, cancel one. They act for every client, through DBOS's
 * own client on the service's database. Under Temporal (TEMPORAL_ADDRESS) runs are Temporal's:
 * its own tools (`temporal workflow list|reset|cancel`) do this there.
 */
import { DBOSClient, type WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { APPLICATION_NAME, DBOS_SCHEMA } from '../engine/dbos-names';
import { UNFINISHED } from '../engine/dbos-runs';
import { dbosLogger } from '../engine/dbos-system-database';
import { PARKED } from '../engine/parked-flows';
import { reopenWorkOfParkedFlow } from '../engine/parked-flow-lines';

export const FLOW_USAGE = `  npm run cli -- flow list [--dead] [--limit <n>] [--json]
  npm run cli -- flow retry <workflowId>
  npm run cli -- flow cancel <workflowId>`;

export interface FlowCommandInput {
  orm: MikroORM;
  databaseUrl: string;
  /** Set when flows run on Temporal: these commands then only say where to look. */
  temporal: boolean;
  log: Logger;
  values: { dead?: boolean; limit?: string; json: boolean };
  rest: string[];
  usage(message: string): never;
}

/** Runs a parked (or cancelled) run may be retried from; a finished one has nothing left to do. */
const RETRYABLE = [PARKED, 'CANCELLED'];

/** Runs `command` if it is one of these; false when it is not. */
export async function runFlowCommand(command: string, input: FlowCommandInput): Promise<boolean> {
  if (!['flow list', 'flow retry', 'flow cancel'].includes(command)) return false;
  const { orm, databaseUrl, values, rest, usage } = input;
  if (input.temporal) {
    throw new Error(
      `${command}: flows run on Temporal (TEMPORAL_ADDRESS is set), which never parks a run: a crashing activity is bounded by its retry policy. Use \`temporal workflow list|reset|cancel\` there`,
    );
  }
  const client = await DBOSClient.create({
    systemDatabaseUrl: databaseUrl,
    systemDatabaseSchemaName: DBOS_SCHEMA,
    systemDatabasePoolSize: 2,
    applicationName: APPLICATION_NAME,
    logger: dbosLogger(input.log),
  });
  try {
    const run = async (): Promise<WorkflowStatus> => {
      const workflowId = rest[0];
      if (!workflowId) return usage(`${command} needs a workflow id (see \`flow list\`)`);
      const status = await client.getWorkflow(workflowId);
      if (!status) throw new Error(`no flow run ${workflowId}`);
      return status;
    };
    switch (command) {
      case 'flow list': {
        const limit = values.limit === undefined ? 100 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
          return usage('--limit must be an integer from 1 to 10000');
        const runs = await client.listWorkflows({
          status: values.dead ? PARKED : [...UNFINISHED, PARKED],
          sortDesc: true,
          limit,
          loadInput: false,
          loadOutput: false,
        } as Parameters<DBOSClient['listWorkflows']>[0]);
        if (values.json) {
          console.log(JSON.stringify(runs.map(describe)));
        } else {
          for (const r of runs.map(describe))
            console.log(
              `${r.workflowId}  ${r.flow}  ${r.status}  attempts=${r.recoveryAttempts}  updated ${r.updatedAt}`,
            );
          if (runs.length === 0) console.log(values.dead ? 'no parked flow runs' : 'no flow runs under way or parked');
        }
        return true;
      }
      case 'flow retry': {
        const status = await run();
        if (!RETRYABLE.includes(status.status))
          throw new Error(
            `flow run ${status.workflowID} is ${status.status}: only a parked or cancelled run can be retried`,
          );
        // Its order line back where the run left it, then the run from its last recorded step.
        await reopenWorkOfParkedFlow(orm, status.workflowID);
        await client.resumeWorkflow(status.workflowID);
        console.log(`flow run ${status.workflowID} (${status.workflowName}) resumes from its last recorded step`);
        return true;
      }
      case 'flow cancel': {
        const status = await run();
        if (status.status === 'SUCCESS' || status.status === 'ERROR')
          throw new Error(`flow run ${status.workflowID} has already ended (${status.status})`);
        await client.cancelWorkflow(status.workflowID);
        console.log(`flow run ${status.workflowID} (${status.workflowName}) cancelled`);
        return true;
      }
    }
    return false;
  } finally {
    await client.destroy();
  }
}

function describe(run: WorkflowStatus) {
  return {
    workflowId: run.workflowID,
    flow: run.workflowName,
    status: run.status === PARKED ? 'parked' : run.status.toLowerCase(),
    recoveryAttempts: run.recoveryAttempts ?? 0,
    updatedAt: new Date(run.updatedAt ?? run.createdAt).toISOString(),
  };
}
