print("locationctl: not built yet")
