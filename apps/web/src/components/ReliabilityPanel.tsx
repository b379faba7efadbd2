import { Card, Flex, theme } from 'antd';
import { STATUS_COLORS } from '../lib/theme.ts';
import { SecondaryText } from './Text.tsx';

export const formatScore = (score: number) => `${score.toFixed(1)}%`;

/**
 * Reliability Score (docs/web-pages.md "Pages"): a progress bar with the score and the goal percent;
 * nothing at all while the score is -1 (not observed yet).
 */
export function ReliabilityPanel({
  score,
  goal,
  title = 'Reliability Score',
}: {
  score: number | undefined;
  goal: number;
  title?: string;
}) {
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
        <SecondaryText>Goal {formatScore(goal)}</SecondaryText>
      </Flex>
      <ScoreBar
        percent={score}
        color={meets ? STATUS_COLORS.online : STATUS_COLORS.warning}
        label={meets ? 'On goal' : 'Below goal'}
        ariaLabel={placeholder ? undefined : `Reliability ${formatScore(score)} against a goal of ${formatScore(goal)}`}
      />
    </>
  );
}

/**
 * The score as a bar with its verdict beside it, drawn as antd's line Progress draws it (8 px, round
 * ends, the fill token for the track), without Progress's circle and steps code on Pulse.
 */
function ScoreBar({ percent, color, label, ariaLabel }: { percent: number; color: string; label: string; ariaLabel?: string }) {
  const { token } = theme.useToken();
  const filled = Math.min(100, Math.max(0, percent));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={filled}
      aria-label={ariaLabel}
      style={{ display: 'flex', alignItems: 'center', gap: 8 }}
    >
      <div style={{ flex: 1, height: 8, borderRadius: 100, background: token.colorFillSecondary, overflow: 'hidden' }}>
        <div style={{ width: `${filled}%`, height: '100%', borderRadius: 100, background: color }} />
      </div>
      <span style={{ whiteSpace: 'nowrap', color: token.colorText }}>{label}</span>
    </div>
  );
}
