import { Col, Row, theme } from 'antd';
import { NARROW_QUERY } from '../../../lib/theme.ts';
import { chartHeight } from '../../../components/charts/geometry.ts';
import { useMediaQuery } from '../../../lib/useMediaQuery.ts';

/**
 * Pulse's first screen while the body's code arrives: empty card frames where the counts, the donut,
 * the reliability panel and Open Case Status go (the grid of PulseBody, their heights). Nothing stays
 * from it when the body renders, so nothing moves.
 */
export function PulseBodySkeleton() {
  const { token } = theme.useToken();
  const height = chartHeight(useMediaQuery(NARROW_QUERY));
  const frame = (h: number) => (
    <div
      style={{
        height: h,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
      }}
    />
  );
  return (
    <Row gutter={[16, 16]} aria-busy aria-label="Loading Pulse">
      <Col span={24}>
        <Row gutter={[16, 16]}>
          {Array.from({ length: 5 }, (_, i) => (
            <Col key={i} xs={12} sm={8} md={8} lg={{ flex: '1 1 0' }}>
              {frame(81)}
            </Col>
          ))}
        </Row>
      </Col>
      <Col xs={24} lg={10} xl={8}>
        {/* Card head 57 + padding 48 + the chart. */}
        {frame(height + 105)}
      </Col>
      <Col xs={24} lg={14} xl={16}>
        {frame(height + 105)}
      </Col>
    </Row>
  );
}
