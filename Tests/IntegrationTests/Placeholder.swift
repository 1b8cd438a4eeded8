import Testing

@Test func placeholderIntegrationTests() {}
