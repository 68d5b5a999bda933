import TrainTrackerCommands

TrainTrackerCommand.runMain()
