import { Col, Row, Steps, Typography } from 'antd';
import { Benefits, Section } from '../components.tsx';
import { ConsoleIllustration } from '../ConsoleIllustration.tsx';

export default function WhyUsPage() {
  return (
    <>
      <Section>
        <Row gutter={[48, 32]} align="middle">
          <Col xs={24} lg={12}>
            <Typography.Title>Why service companies choose Vigil</Typography.Title>
            <Typography.Paragraph type="secondary" style={{ fontSize: 18 }}>
              Your technicians should drive to a site because a device needs them, not to find out whether it does. Vigil turns the reports
              of your customers' device clouds into one picture of what is online, what is not, and what you are doing about it.
            </Typography.Paragraph>
          </Col>
          <Col xs={24} lg={12}>
            <ConsoleIllustration />
          </Col>
        </Row>
      </Section>
      <Section tinted>
        <Benefits />
      </Section>
      <Section>
        <Typography.Title level={2}>From offline to fixed</Typography.Title>
        <Steps
          orientation="vertical"
          current={-1}
          items={[
            {
              title: 'Connect a portal',
              description: 'Add the customer with its API key; point its device cloud at the portal’s signed webhook.',
            },
            { title: 'Watch the pulse', description: 'Device counts, the online share and each customer’s reliability score, live.' },
            { title: 'Act on alerts', description: 'An offline device raises an alert; open a case for it with one click.' },
            { title: 'Report', description: 'Send the customer a report of the period: cases, uptime and reliability against the goal.' },
          ]}
        />
      </Section>
    </>
  );
}
