import Testing

@Test func placeholderLocationDaemonTests() {}
