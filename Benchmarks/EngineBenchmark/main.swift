print("engine benchmark: not built yet")
