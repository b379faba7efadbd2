import { Card, Flex, Progress, Typography } from 'antd';
import { STATUS_COLORS } from '../../../app/theme.ts';

export const formatScore = (score: number) => `${score.toFixed(1)}%`;

/**
 * Reliability Score (spec §2 Cards): a progress bar with the score and the goal percent;
 * nothing at all while the score is -1 (not observed yet).
 */
export function ReliabilityPanel({ score, goal, title = 'Reliability Score' }: { score: number | undefined; goal: number; title?: string }) {
  if (score === undefined || score < 0) return null;
  const meets = score >= goal;
  return (
    <Card title={title} size="small">
      <Flex align="baseline" justify="space-between" wrap="wrap" gap={8}>
        <span style={{ fontSize: 28, fontWeight: 700 }} data-testid="reliability-score">
          {formatScore(score)}
        </span>
        <Typography.Text type="secondary">Goal {formatScore(goal)}</Typography.Text>
      </Flex>
      <Progress
        percent={score}
        success={{ percent: 0 }}
        strokeColor={meets ? STATUS_COLORS.online : STATUS_COLORS.warning}
        format={() => (meets ? 'On goal' : 'Below goal')}
        aria-label={`Reliability ${formatScore(score)} against a goal of ${formatScore(goal)}`}
      />
    </Card>
  );
}
