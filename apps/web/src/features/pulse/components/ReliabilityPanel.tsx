import { Card, Flex, Progress, Typography } from 'antd';
import { STATUS_COLORS } from '../../../app/theme.ts';

export const formatScore = (score: number) => `${score.toFixed(1)}%`;

/**
 * Reliability Score (spec §2 Cards): a progress bar with the score and the goal percent;
 * nothing at all while the score is -1 (not observed yet).
 */
export function ReliabilityPanel({ score, goal, title = 'Reliability Score' }: { score: number | undefined; goal: number; title?: string }) {
  if (score === undefined || score < 0) return null;
  return (
    <Card title={title} size="small">
      <ReliabilityBody score={score} goal={goal} />
    </Card>
  );
}

/**
 * The panel's place while the score loads: the same card with its content laid out but not shown,
 * so nothing below moves when the score arrives (layout shift).
 */
export function ReliabilityPanelSkeleton({ title = 'Reliability Score' }: { title?: string }) {
  return (
    <Card title={title} size="small" aria-busy>
      <div aria-hidden style={{ visibility: 'hidden' }}>
        <ReliabilityBody score={100} goal={100} placeholder />
      </div>
    </Card>
  );
}

function ReliabilityBody({ score, goal, placeholder = false }: { score: number; goal: number; placeholder?: boolean }) {
  const meets = score >= goal;
  return (
    <>
      <Flex align="baseline" justify="space-between" wrap="wrap" gap={8}>
        <span style={{ fontSize: 28, fontWeight: 700 }} data-testid={placeholder ? undefined : 'reliability-score'}>
          {formatScore(score)}
        </span>
        <Typography.Text type="secondary">Goal {formatScore(goal)}</Typography.Text>
      </Flex>
      <Progress
        percent={score}
        success={{ percent: 0 }}
        strokeColor={meets ? STATUS_COLORS.online : STATUS_COLORS.warning}
        format={() => (meets ? 'On goal' : 'Below goal')}
        aria-label={placeholder ? undefined : `Reliability ${formatScore(score)} against a goal of ${formatScore(goal)}`}
      />
    </>
  );
}
