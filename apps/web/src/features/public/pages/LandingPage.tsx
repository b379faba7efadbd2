import { Button, Col, Flex, Row, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { PRODUCT_NAME } from '@vigil/contracts';
import { Benefits, PriceCard, Section } from '../components.tsx';
import { ConsoleIllustration } from '../ConsoleIllustration.tsx';

/** Landing (docs/web.md "Routes"): image, product title and 'TO LOG IN' to the sign-in route. */
export default function LandingPage() {
  const navigate = useNavigate();
  return (
    <>
      <Section>
        <Row gutter={[48, 32]} align="middle">
          <Col xs={24} lg={11}>
            <Typography.Title style={{ fontSize: 'clamp(36px, 5vw, 56px)', marginBottom: 8 }}>{PRODUCT_NAME}</Typography.Title>
            <Typography.Title level={2} style={{ marginTop: 0, fontWeight: 500 }}>
              The operations console for security-device service companies
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ fontSize: 18 }}>
              See every camera, intercom, access panel, alarm and sensor you look after, across all your customers. Know what went offline,
              where and since when — and fix it before the customer calls.
            </Typography.Paragraph>
            <Flex gap={12} wrap="wrap">
              <Button type="primary" size="large" onClick={() => navigate('/auth/signin')}>
                TO LOG IN
              </Button>
              <Button size="large" onClick={() => navigate('/auth/signup')}>
                Start free trial
              </Button>
            </Flex>
          </Col>
          <Col xs={24} lg={13}>
            <ConsoleIllustration />
          </Col>
        </Row>
      </Section>
      <Section tinted>
        <Typography.Title level={2} style={{ textAlign: 'center', marginTop: 0 }}>
          Built for the people who keep buildings safe
        </Typography.Title>
        <Benefits />
      </Section>
      <Section>
        <Typography.Title level={2} style={{ textAlign: 'center', marginTop: 0 }}>
          Simple pricing
        </Typography.Title>
        <PriceCard />
      </Section>
    </>
  );
}
