/**
 * The stage's CloudWatch dashboard, the first page an operator opens: the alarms' states, then the
 * rows Monitoring watches (monitoring.ts), each alarm's threshold on its graph, and the gateway's
 * 429 from the access log after the stage's row. Every graph is at the alarms' one-minute period.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IAlarm,
  LogQueryVisualizationType,
  LogQueryWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { isAlarmed, type Monitoring } from './monitoring.ts';

/** The dashboard grid is 24 units wide. */
const WIDTH = 24;

/** The gateway's 429 by the access log's `errorResponseType`: API Gateway publishes no metric of its throttle. */
export const GATEWAY_THROTTLED_QUERY = ['filter errorResponseType = "THROTTLED"', 'stats count() as throttled by bin(1m)'] as const;

export interface StageDashboardProps {
  readonly monitoring: Monitoring;
  /** Alarms of other constructs, shown with Monitoring's in the alarms' states. */
  readonly alarms?: readonly IAlarm[];
  /** The stage's access log group, which the gateway's 429 is counted from. */
  readonly accessLogGroupName: string;
}

export class StageDashboard extends Construct {
  readonly dashboard: Dashboard;
  readonly dashboardName: string;
  /** The dashboard in the CloudWatch console. */
  readonly url: string;

  constructor(scope: Construct, id: string, { monitoring, alarms = [], accessLogGroupName }: StageDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Dashboards are global to an account (docs/operators.md): the region keeps each stage's its own.
    this.dashboardName = `${stack.stackName}-${stack.region}`;
    this.url = `https://${stack.region}.console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${this.dashboardName}`;
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: this.dashboardName, defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...monitoring.all, ...alarms], width: WIDTH }));
    monitoring.rows.forEach((row, i) => {
      const width = Math.floor(WIDTH / row.length);
      this.dashboard.addWidgets(
        ...row.map(
          ({ title, lines }) =>
            new GraphWidget({
              title,
              width,
              height: 6,
              left: lines.map((line) => (isAlarmed(line) ? line.metric : line)),
              leftAnnotations: lines.filter(isAlarmed).map((line) => monitoring.alarmOf(line).toAnnotation()),
            }),
        ),
      );
      if (i > 0) return;
      this.dashboard.addWidgets(
        new LogQueryWidget({
          title: 'Limits: the methods’ throttle (the gateway’s 429, from the access log)',
          logGroupNames: [accessLogGroupName],
          queryLines: [...GATEWAY_THROTTLED_QUERY],
          view: LogQueryVisualizationType.LINE,
          width: WIDTH,
          height: 6,
        }),
      );
    });
  }
}
