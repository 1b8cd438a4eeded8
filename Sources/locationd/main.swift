print("locationd: not built yet")
